// npm run fuzz [-- <bodies per endpoint>]: the fuzz suites of the gateway and the built-in CRM
// (apps/*/src/fuzz.int-spec.ts) with many bodies per write endpoint (default 2,000: 100,000 bodies
// for the gateway's 35 endpoints and the CRM's 15). One MongoDB-wire server for both, the local
// RabbitMQ, both suites side by side (one per core); FUZZ_CONCURRENCY requests in flight per
// endpoint (default 8). Then the gateway's four endpoints that call the CRM again, with the built
// gateway and CRM running as processes (apps/e2e/src/fuzz-with-crm.e2e-spec.ts). Fails on any 5xx
// (but a 502 where the gateway's CRM is away, in the first suite only) or hang, and prints the
// bodies sent and the rate.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const runs = process.argv[2] ?? '2000';
if (!/^\d+$/.test(runs)) {
  console.error('usage: npm run fuzz -- [bodies per endpoint]');
  process.exit(2);
}
const concurrency = Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 8));
const bodiesPerEndpoint = Math.ceil(Number(runs) / concurrency) * concurrency;

const { ensureJar, startMongoServer } = require('../infra/mongo-server.cjs');
const { ensureRabbitMq } = require('../infra/rabbitmq.cjs');
ensureJar();
const amqpUrl = await ensureRabbitMq();
const mongo = await startMongoServer({ logFile: path.join(root, 'tmp', 'mongo-server-fuzz.log') });
const outDir = path.join(root, 'tmp', 'fuzz');
fs.mkdirSync(outDir, { recursive: true });

const SUITES = {
  gateway: ['apps/gateway/jest.integration.config.js', 'apps/gateway/src/fuzz.int-spec.ts'],
  crm: ['apps/crm/jest.integration.config.js', 'apps/crm/src/fuzz.int-spec.ts'],
  // the gateway's endpoints that call the CRM, with the built gateway and CRM as processes: no 502 allowed
  'gateway with its CRM': ['apps/e2e/jest.config.js', 'apps/e2e/src/fuzz-with-crm.e2e-spec.ts'],
};

function runSuite(app) {
  const resultFile = path.join(outDir, `${app.replace(/ /g, '-')}.json`);
  fs.rmSync(resultFile, { force: true });
  console.log(`[fuzz] ${app}: ${bodiesPerEndpoint} bodies per write endpoint, ${concurrency} at a time`);
  const [config, spec] = SUITES[app];
  const args = ['jest', '-c', config, spec, '--runInBand', '--json', `--outputFile=${resultFile}`];
  return new Promise((resolve) => {
    const child = spawn('npx', args, { cwd: root, stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: runs, MONGO_URL: mongo.url, AMQP_URL: amqpUrl } });
    child.once('exit', (code) => {
      const result = fs.existsSync(resultFile) ? JSON.parse(fs.readFileSync(resultFile, 'utf8')) : null;
      resolve({ app, code: code ?? 1, endpoints: result?.numTotalTests ?? 0, failed: result ? result.numFailedTests + result.numRuntimeErrorTestSuites : 1 });
    });
  });
}

const started = Date.now();
let results;
try {
  results = await Promise.all(['gateway', 'crm'].map(runSuite));
  const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '-p', 'gateway,crm'], { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  results.push(build.status === 0 ? await runSuite('gateway with its CRM') : { app: 'gateway with its CRM (build failed)', code: 1, endpoints: 0, failed: 1 });
} finally {
  await mongo.stop();
}
const seconds = (Date.now() - started) / 1000;
let bodies = 0;
for (const { app, endpoints, failed } of results) {
  bodies += endpoints * bodiesPerEndpoint;
  console.log(`[fuzz] ${app}: ${endpoints} endpoints, ${endpoints * bodiesPerEndpoint} bodies, ${failed} failed`);
}
console.log(`[fuzz] ${bodies} bodies in ${seconds.toFixed(0)} s (${(bodies / seconds).toFixed(1)} bodies/s, start-up included)`);
process.exit(results.every((result) => result.code === 0 && result.failed === 0) ? 0 : 1);
