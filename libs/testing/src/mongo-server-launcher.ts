import path from 'node:path';
import { workspaceRoot } from './workspace-root';

/** One entry of the development server's `ecommCommandStats` in serverStatus (tools/mongo-server, CommandStats.java). */
export interface MongoCommandStat {
  db: string;
  collection: string;
  command: string;
  commands: number;
  documents: number;
  micros: number;
}

/** What tools/infra/mongo-server.cjs takes (its own types: mongo-server.d.cts beside it). */
export interface MongoServerOptions {
  port?: number;
  host?: string;
  /** Keep the data in this H2 (MVStore) file instead of in memory. */
  h2File?: string;
  logFile?: string;
  /** JVM options, placed before `-jar`. */
  javaOptions?: string[];
}

/** A MongoDB-wire server started by the project's launcher. */
export interface LaunchedMongoServer {
  url: string;
  port: number;
  /** Process id of the JVM. */
  pid: number;
  logFile: string;
  /** SIGTERM (SIGKILL after 10 s); resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * The project's launcher of the MongoDB-wire server, the one way TypeScript code starts a server of
 * its own (the server's own tests, the chaos suite). It is CommonJS in tools/infra, where the jest
 * global setup and the scripts use it too, and is loaded from the workspace root at run time, so no
 * import runs up out of the library.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { startMongoServer } = require(path.join(workspaceRoot, 'tools', 'infra', 'mongo-server.cjs')) as {
  startMongoServer(options?: MongoServerOptions): Promise<LaunchedMongoServer>;
};

/**
 * A server of a spec's own, for the server's own tests: sized for one CPU and compiling with the
 * client compiler only. A JVM starting at full width is seconds of every core of the machine, and
 * the whole suite runs timing-sensitive end-to-end specs beside these (the CRM budget's windows).
 */
export function startPrivateMongoServer(options: MongoServerOptions = {}): Promise<LaunchedMongoServer> {
  return startMongoServer({ ...options, javaOptions: ['-XX:ActiveProcessorCount=1', '-XX:TieredStopAtLevel=1', ...(options.javaOptions ?? [])] });
}
