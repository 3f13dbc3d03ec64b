import { existsSync } from 'node:fs';
import path from 'node:path';

type Launcher = typeof import('../../../tools/infra/mongo-server.cjs');
/** A MongoDB-wire server started by the project's launcher. */
/** One entry of the development server's `ecommCommandStats` in serverStatus (tools/mongo-server, CommandStats.java). */
export interface MongoCommandStat {
  db: string;
  collection: string;
  command: string;
  commands: number;
  documents: number;
  micros: number;
}

export type LaunchedMongoServer = Awaited<ReturnType<Launcher['startMongoServer']>>;

/** The workspace root (where nx.json is). */
const workspaceRoot = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) if (existsSync(path.join(dir, 'nx.json'))) return dir;
  throw new Error(`no nx.json above ${__dirname}`);
})();

/** The project's launcher of the MongoDB-wire server (CommonJS, in tools/; types in mongo-server.d.cts), for the server's own tests. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { startMongoServer } = require(path.join(workspaceRoot, 'tools', 'infra', 'mongo-server.cjs')) as Launcher;
