// npm run chaos [-- --quick] [-- --only gateway,mongodb]: builds the apps and the chaos runner,
// makes sure the MongoDB-wire server's jar exists, and runs apps/e2e/src/chaos/run-chaos.ts.
// Every scenario starts its own database server and uses a RabbitMQ node of its own.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleScript } from './bundle-script.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const APPS = ['crm', 'gateway', 'mapper', 'applier', 'import-coordinator', 'webhook-dispatcher', 'alert-evaluator'];

if (spawnSync('npx', ['nx', 'run-many', '-t', 'build', '-p', APPS.join(','), '--outputStyle=static'], { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } }).status !== 0) {
  process.exit(1);
}
await bundleScript('apps/e2e/src/chaos/run-chaos.ts', 'dist/chaos/run-chaos.js');
require('../infra/mongo-server.cjs').ensureJar();
const child = spawn(process.execPath, [path.join(root, 'dist', 'chaos', 'run-chaos.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(await new Promise((resolve) => child.once('exit', (status) => resolve(status ?? 1))));
