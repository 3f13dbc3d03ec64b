/**
 * npm run chaos [-- --quick] [-- --only mapper,crm]: every part of the running service SIGKILLed
 * mid-stream and restarted (gateway, mapper, applier, CRM, the MongoDB-wire server, a RabbitMQ
 * node of the suite's own), 10,000 acknowledged objects per scenario with updates racing the kill
 * at 40 requests/s. Prints acknowledged / applied / lost / duplicated / wrong final value per
 * scenario, appends the run to docs/reliability.md, and fails on any loss, duplicate or wrong value.
 */
import fs from 'node:fs';
import path from 'node:path';
import { kept, resultTable } from './chaos-check';
import { runChaosScenario, startChaosBroker } from './chaos-scenario';
import { FAULTS, type ChaosResult, type Fault } from './chaos-types';
import { workspaceRoot } from '@ecomm-sync/testing';

async function main() {
  const quick = process.argv.includes('--quick');
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',') : null;
  const unknown = (only ?? []).filter((name) => !FAULTS.includes(name as Fault));
  if (unknown.length > 0) throw new Error(`unknown fault ${unknown.join(', ')}; choose from ${FAULTS.join(', ')}`);
  const faults = only ? (only as Fault[]) : FAULTS;
  const options = quick
    ? { objects: 2_000, batchSize: 20, requestsPerSecond: 40, downMs: 3_000 }
    : { objects: 10_000, batchSize: 50, requestsPerSecond: 40, downMs: 3_000 };
  console.log(`[chaos] ${faults.length} scenarios, ${options.objects} objects each, ${options.requestsPerSecond} requests/s, ${options.downMs} ms down`);

  fs.mkdirSync(path.join(workspaceRoot, 'tmp'), { recursive: true });
  const rabbit = await startChaosBroker();
  const results: ChaosResult[] = [];
  try {
    for (const fault of faults) {
      const result = await runChaosScenario(fault, rabbit, { ...options, log: (line) => console.log(line) });
      results.push(result);
      console.log(`[chaos] ${fault}: ${kept(result) ? 'kept' : 'BROKEN'} ${result.examples.join('; ')}`);
    }
  } finally {
    await rabbit.stop();
  }
  const table = resultTable(results);
  console.log(`\n${table}\n`);
  const report = path.join(workspaceRoot, 'docs', 'reliability.md');
  const runLine = `\n### Run of ${new Date().toISOString().slice(0, 16)} (\`npm run chaos${quick ? ' -- --quick' : ''}\`, ${options.objects} objects per scenario)\n\n${table}\n`;
  fs.appendFileSync(report, runLine);
  console.log(`[chaos] appended to ${path.relative(workspaceRoot, report)}`);
  if (!results.every(kept)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
