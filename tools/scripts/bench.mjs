// npm run bench [-- --quick]: builds the apps and the benchmark, starts the infrastructure, runs bench/src/run.ts.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleScript } from './bundle-script.mjs';
import { commitMeasured, treeDigest } from './commit-measured.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const APPS = ['crm', 'gateway', 'mapper', 'applier', 'import-coordinator', 'webhook-dispatcher', 'alert-evaluator'];

function runOrExit(command, args) {
  if (spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } }).status !== 0) process.exit(1);
}

// Read before and after the build (run.ts records it as BENCH_COMMIT): a commit or an edit while the
// build reads the source may or may not be in what is measured, and the record says so.
const [before, digestBefore] = [commitMeasured(root), treeDigest(root)];
runOrExit('npx', ['nx', 'run-many', '-t', 'build', '-p', APPS.join(','), '--outputStyle=static']);
for (const entry of ['run', 'baseline-server', 'floor-server']) await bundleScript(`bench/src/${entry}.ts`, `dist/bench/${entry}.js`);
const [after, digestAfter] = [commitMeasured(root), treeDigest(root)];
const commit = digestBefore !== null && digestBefore === digestAfter ? before : `${before}, changed during the build (${after} after it)`;

const { startMongoServer } = require('../infra/mongo-server.cjs');
const { ensureRabbitMq } = require('../infra/rabbitmq.cjs');
const amqpUrl = await ensureRabbitMq();
// --profile: a flight recording of the database server and a CPU profile of every app, summarised
// by tools/scripts/profile-report.mjs at the end.
const profileDir = path.join(root, 'tmp', 'bench-profile');
const profiling = process.argv.includes('--profile');
if (profiling) {
  fs.rmSync(profileDir, { recursive: true, force: true });
  fs.mkdirSync(profileDir, { recursive: true });
}
const mongo = await startMongoServer({
  logFile: path.join(root, 'tmp', 'mongo-server-bench.log'),
  javaOptions: profiling ? [`-XX:StartFlightRecording=filename=${path.join(profileDir, 'mongo-server.jfr')},settings=profile`] : [],
});
const child = spawn(process.execPath, [path.join(root, 'dist', 'bench', 'run.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    BENCH_COMMIT: commit,
    MONGO_URL: mongo.url,
    AMQP_URL: amqpUrl,
    MONGO_SERVER_PID: String(mongo.pid),
    ...(profiling ? { BENCH_PROFILE_DIR: profileDir } : {}),
  },
});
const code = await new Promise((resolve) => child.once('exit', (status) => resolve(status ?? 1)));
await mongo.stop(); // the flight recording is written as the server stops
if (profiling) spawnSync(process.execPath, [path.join(root, 'tools', 'scripts', 'profile-report.mjs'), profileDir], { cwd: root, stdio: 'inherit' });
process.exit(code);
