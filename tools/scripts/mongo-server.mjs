// npm run mongo:start [-- <port>] [-- --h2 <file>]: the development MongoDB-wire server alone, in
// the foreground, for running one suite or app by hand (MONGO_URL=mongodb://127.0.0.1:<port>).
// Ctrl-C stops it. `npm start` and `npm test` start their own; this is for everything else.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const h2At = args.indexOf('--h2');
const h2File = h2At >= 0 ? path.resolve(args[h2At + 1] ?? '') : undefined;
const portArg = args.find((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--h2');
const port = portArg ? Number(portArg) : 27017;

const { ensureJar, startMongoServer } = require('../infra/mongo-server.cjs');
ensureJar();
const server = await startMongoServer({ port, h2File, logFile: path.join(root, 'tmp', 'mongo-server.log') });
console.log(`MongoDB-wire server at ${server.url}${h2File ? ` (H2 file ${h2File})` : ' (in memory)'}; Ctrl-C stops it`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void server.stop().then(() => process.exit(0)));
}
