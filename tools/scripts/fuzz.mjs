// npm run fuzz [-- <bodies per endpoint>]: the fuzz suites of the gateway and the built-in CRM
// (apps/*/src/fuzz.int-spec.ts) with many bodies per write endpoint (default 4,000: about 104,000
// bodies for the gateway's 26 endpoints, 52,000 for the CRM's 13). Their integration configs start
// the MongoDB-wire server and use the local RabbitMQ, as npm test does. Fails on any 5xx or hang.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = process.argv[2] ?? '4000';
if (!/^\d+$/.test(runs)) {
  console.error('usage: npm run fuzz -- [bodies per endpoint]');
  process.exit(2);
}
let status = 0;
for (const app of ['crm', 'gateway']) {
  console.log(`\n[fuzz] ${app}: ${runs} bodies per write endpoint`);
  const result = spawnSync('npx', ['jest', '-c', `apps/${app}/jest.integration.config.js`, 'fuzz.int-spec', '--reporters=default'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_RUNS: runs },
  });
  status ||= result.status ?? 1;
}
process.exit(status);
