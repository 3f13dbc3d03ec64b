// npm start: the whole service in the foreground — MongoDB-wire server (H2 file, so data survives
// restarts), RabbitMQ check, every app as its own process, and a demo portal ready to sync.
// Ctrl-C stops all of it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const APPS = ['crm', 'gateway', 'mapper', 'applier', 'import-coordinator', 'webhook-dispatcher', 'alert-evaluator'];

// Every port can be set, so that several stacks run on one machine; each internal port follows its
// app's unless set (the gateway's and the CRM's metrics port: the API port + 1).
const gatewayPort = process.env.GATEWAY_PORT || '3000';
const crmPort = process.env.CRM_PORT || '3100';
const settings = {
  GATEWAY_PORT: gatewayPort,
  GATEWAY_METRICS_PORT: process.env.GATEWAY_METRICS_PORT || String(Number(gatewayPort) + 1),
  CRM_PORT: crmPort,
  CRM_METRICS_PORT: process.env.CRM_METRICS_PORT || String(Number(crmPort) + 1),
  MAPPER_HEALTH_PORT: process.env.MAPPER_HEALTH_PORT || '3201',
  APPLIER_HEALTH_PORT: process.env.APPLIER_HEALTH_PORT || '3202',
  IMPORT_COORDINATOR_HEALTH_PORT: process.env.IMPORT_COORDINATOR_HEALTH_PORT || '3203',
  WEBHOOK_DISPATCHER_HEALTH_PORT: process.env.WEBHOOK_DISPATCHER_HEALTH_PORT || '3204',
  ALERT_EVALUATOR_HEALTH_PORT: process.env.ALERT_EVALUATOR_HEALTH_PORT || '3205',
  MONGO_PORT: process.env.MONGO_PORT || '27117',
  ADMIN_TOKEN: process.env.ADMIN_TOKEN || 'dev-admin-token',
  SECRETS_KEY: process.env.SECRETS_KEY || 'dev-secrets-key-not-for-production',
  DEMO_PORTAL_ID: process.env.DEMO_PORTAL_ID || '101',
  DEMO_API_KEY: process.env.DEMO_API_KEY || 'demo-api-key',
  DEMO_CRM_TOKEN: process.env.DEMO_CRM_TOKEN || 'demo-crm-token-0123456789',
  AMQP_PREFIX: process.env.AMQP_PREFIX || 'ecomm',
};

function runOrExit(command, args, childEnv = process.env) {
  const status = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...childEnv, NX_DAEMON: 'false' } }).status;
  if (status !== 0) {
    console.error(`${command} ${args.join(' ')} failed`);
    process.exit(1);
  }
}

if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) runOrExit('npm', ['ci', '--no-audit', '--no-fund']);
// The console is a static build the gateway serves under /console (decision 0033).
runOrExit('npx', ['nx', 'run-many', '-t', 'build', '-p', [...APPS, 'cli', 'console'].join(','), '--outputStyle=static']);

/**
 * The storage layout tmp/dev-data was written with; raise it when documents change shape (decision
 * 15 added the single-field keys). Data of another layout is moved aside, never deleted.
 */
const STORAGE_LAYOUT = '2';
const dataDir = path.join(root, 'tmp', 'dev-data');
const layoutFile = path.join(dataDir, 'LAYOUT');
if (fs.existsSync(path.join(dataDir, 'mongo.mv')) && (fs.existsSync(layoutFile) ? fs.readFileSync(layoutFile, 'utf8').trim() : '1') !== STORAGE_LAYOUT) {
  const aside = `${dataDir}.layout-old-${Date.now()}`;
  fs.renameSync(dataDir, aside);
  console.log(`tmp/dev-data was written with an older storage layout; moved to ${path.relative(root, aside)} and starting afresh`);
}
fs.mkdirSync(dataDir, { recursive: true });
fs.writeFileSync(layoutFile, `${STORAGE_LAYOUT}\n`);

const { startMongoServer } = require('../infra/mongo-server.cjs');
const { ensureRabbitMq } = require('../infra/rabbitmq.cjs');
const amqpUrl = await ensureRabbitMq();
const mongo = await startMongoServer({
  port: Number(settings.MONGO_PORT),
  h2File: path.join(dataDir, 'mongo.mv'),
  logFile: path.join(dataDir, 'mongo-server.log'),
});

const env = {
  ...process.env,
  MONGO_URL: mongo.url,
  AMQP_URL: amqpUrl,
  AMQP_PREFIX: settings.AMQP_PREFIX,
  ADMIN_TOKEN: settings.ADMIN_TOKEN,
  SECRETS_KEY: settings.SECRETS_KEY,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS || 'true',
  CRM_ALLOW_HTTP: process.env.CRM_ALLOW_HTTP || 'true',
  GATEWAY_PORT: settings.GATEWAY_PORT,
  GATEWAY_METRICS_PORT: settings.GATEWAY_METRICS_PORT,
  GATEWAY_PUBLIC_URL: process.env.GATEWAY_PUBLIC_URL || `http://localhost:${settings.GATEWAY_PORT}`,
  CRM_PORT: settings.CRM_PORT,
  CRM_METRICS_PORT: settings.CRM_METRICS_PORT,
  CRM_BASE_URL: `http://127.0.0.1:${settings.CRM_PORT}`,
  MAPPER_HEALTH_PORT: settings.MAPPER_HEALTH_PORT,
  APPLIER_HEALTH_PORT: settings.APPLIER_HEALTH_PORT,
  IMPORT_COORDINATOR_HEALTH_PORT: settings.IMPORT_COORDINATOR_HEALTH_PORT,
  WEBHOOK_DISPATCHER_HEALTH_PORT: settings.WEBHOOK_DISPATCHER_HEALTH_PORT,
  ALERT_EVALUATOR_HEALTH_PORT: settings.ALERT_EVALUATOR_HEALTH_PORT,
  // The console's operations page asks each service at the ports this stack gave it.
  SERVICE_READINESS_URLS:
    process.env.SERVICE_READINESS_URLS ||
    [
      `crm=http://127.0.0.1:${settings.CRM_PORT}`,
      `mapper=http://127.0.0.1:${settings.MAPPER_HEALTH_PORT}`,
      `applier=http://127.0.0.1:${settings.APPLIER_HEALTH_PORT}`,
      `import-coordinator=http://127.0.0.1:${settings.IMPORT_COORDINATOR_HEALTH_PORT}`,
      `webhook-dispatcher=http://127.0.0.1:${settings.WEBHOOK_DISPATCHER_HEALTH_PORT}`,
      `alert-evaluator=http://127.0.0.1:${settings.ALERT_EVALUATOR_HEALTH_PORT}`,
    ].join(','),
  DEMO_PORTAL_ID: settings.DEMO_PORTAL_ID,
  DEMO_API_KEY: settings.DEMO_API_KEY,
  DEMO_CRM_TOKEN: settings.DEMO_CRM_TOKEN,
};

const children = [];
let stopping = false;
function startApp(app) {
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'dist', 'apps', app, 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${app}] ${line}`));
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${app}] exited (${signal ?? code}); stopping the stack`);
      void stop(1);
    }
  });
  children.push(child);
}

async function waitReady(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready within 60 s`);
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the stack ...');
  fs.rmSync(cliEnvFile, { force: true });
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await mongo.stop();
  process.exit(code);
}
// What the CLI needs to reach this stack (tools/scripts/cli.mjs reads it while this process runs):
// gone when the stack stops.
const cliEnvFile = path.join(dataDir, 'cli.json');
const cliEnv = { MONGO_URL: mongo.url, AMQP_URL: amqpUrl, AMQP_PREFIX: settings.AMQP_PREFIX, GATEWAY_URL: `http://127.0.0.1:${settings.GATEWAY_PORT}` };
for (const name of ['CRM_BASE_URL', 'ADMIN_TOKEN', 'SECRETS_KEY', 'SECRETS_PREVIOUS_KEYS', 'DEMO_PORTAL_ID', 'DEMO_API_KEY', 'DEMO_CRM_TOKEN']) {
  if (env[name] !== undefined) cliEnv[name] = env[name];
}
fs.rmSync(cliEnvFile, { force: true }); // a file left by a killed stack: created anew, so that its mode applies
fs.writeFileSync(cliEnvFile, JSON.stringify({ pid: process.pid, env: cliEnv }), { mode: 0o600 });

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  for (const app of APPS) startApp(app);
  await waitReady(`http://127.0.0.1:${settings.CRM_PORT}/readyz`);
  await waitReady(`http://127.0.0.1:${settings.GATEWAY_PORT}/readyz`);
  // A failed seed stops the stack as any failure here does (runOrExit would leave the apps and the
  // database running). Not spawnSync: this process must go on reading the apps' output meanwhile.
  const seeded = await new Promise((resolve) => {
    const seed = spawn(process.execPath, [path.join(root, 'dist', 'apps', 'cli', 'main.js'), 'seed-demo'], { cwd: root, stdio: 'inherit', env });
    children.push(seed); // stopped with the apps should the stack stop meanwhile
    seed.once('error', () => resolve(1));
    seed.once('exit', (code) => resolve(code ?? 1));
  });
  if (seeded !== 0) throw new Error('seeding the demo portal failed (see above)');
} catch (error) {
  console.error(String(error));
  await stop(1);
}

const gateway = `http://localhost:${settings.GATEWAY_PORT}`;
console.log(`
ecomm-sync is running. Ctrl-C stops everything.

  gateway         ${gateway}
  web console     ${gateway}/console/   (sign in with DEMO_API_KEY as a customer, or ADMIN_TOKEN as an operator)
  built-in CRM    http://localhost:${settings.CRM_PORT}
  MongoDB (wire)  ${mongo.url}   (data in tmp/dev-data/mongo.mv)
  RabbitMQ        ${amqpUrl.replace(/\/\/[^@]*@/, '//')}   (prefix "${settings.AMQP_PREFIX}")
  ADMIN_TOKEN     ${settings.ADMIN_TOKEN}
  demo portal     ${settings.DEMO_PORTAL_ID}   DEMO_API_KEY=${settings.DEMO_API_KEY}   DEMO_CRM_TOKEN=${settings.DEMO_CRM_TOKEN}

Try:
  curl -i -X PUT '${gateway}/extensions/ecomm/v1/sync-messages/CONTACT?hapikey=${settings.DEMO_API_KEY}' \\
    -H 'content-type: application/json' \\
    -d '[{"integratorObjectId":"c-1","action":"UPSERT","changeOccurredTimestamp":${Date.now()},"propertyNameToValues":{"email":"ada@example.com","firstname":"Ada"}}]'
  curl '${gateway}/extensions/ecomm/v2/sync/status/default/CONTACT/c-1?hapikey=${settings.DEMO_API_KEY}'
  npm run cli -- create-portal "My shop"   (the CLI reaches this stack while it runs: tmp/dev-data/cli.json)
`);
