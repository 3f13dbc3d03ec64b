/**
 * npm run bench [-- --quick] [-- --only <figure>] [-- --stack-env KEY=VALUE …]: figures of the running service against
 * baselines measured in the same run on the same machine. Prints a table, writes
 * bench/results/latest.json and appends the run to docs/benchmarks.md (record.ts).
 */
import { benchCrmBudget, crmBudgetRow } from './crm-budget';
import { benchCrmRequestLog, crmRequestLogRows } from './crm-request-log';
import { benchCrmTransport, crmTransportRow } from './crm-transport';
import { benchEndToEnd } from './end-to-end';
import { endToEndNotes, endToEndRows } from './end-to-end-report';
import { benchFairness, fairnessRow } from './fairness';
import { benchIngest, ingestFloorRow, ingestRow, measureIngest } from './ingest';
import { benchCommit, machineAtStart, type MachineAtStart } from './machine';
import { benchObservability, observabilityRow } from './observability';
import { chunksAtOnce, crmLatencyMs, crmMaxWaitMs, crmRequestLogFigures, log, only, resumePatienceMs, SIZES } from './options';
import { record } from './record';
import { benchReapply, reapplyRow } from './reapply';

interface Figure<T> {
  run: () => Promise<T>;
  rows: (figure: T) => string[];
  notes?: (figure: T) => string[];
}
const figure = <T>(definition: Figure<T>): Figure<unknown> => definition as Figure<unknown>;

/** Every figure, in the order a whole run measures them. */
const FIGURES: Record<string, Figure<unknown>> = {
  ingest: figure({ run: benchIngest, rows: (f) => [ingestRow(f), ingestFloorRow(f)] }),
  observability: figure({ run: () => benchObservability(measureIngest), rows: (f) => [observabilityRow(f, SIZES.ingestRequests)] }),
  e2e: figure({ run: () => benchEndToEnd(), rows: endToEndRows, notes: endToEndNotes }),
  reapply: figure({ run: benchReapply, rows: (f) => [reapplyRow(f)] }),
  crmBudget: figure({
    run: () => benchCrmBudget({ ...SIZES.crmBudget, crmMaxWaitMs, resumePatienceMs, crmLatencyMs, chunksAtOnce }),
    rows: (f) => [crmBudgetRow(f)],
  }),
  fairness: figure({ run: () => benchFairness(SIZES.fairness), rows: (f) => [fairnessRow(f)] }),
};
/** Figures run only when named with --only: the whole run measures each of them once already. */
const EXTRA_FIGURES: Record<string, Figure<unknown>> = {
  crmRequestLog: figure({ run: () => benchCrmRequestLog(crmRequestLogFigures), rows: crmRequestLogRows }),
  fairnessReplicas: figure({ run: () => benchFairness({ ...SIZES.fairness, gateways: 2 }), rows: (f) => [fairnessRow(f)] }),
  crmTransport: figure({ run: benchCrmTransport, rows: (f) => [crmTransportRow(f)] }),
};
/** `--only` names as typed on the command line; these figures are recorded when run alone (the others are for profiling). */
const ALIASES: Record<string, string> = {
  'crm-budget': 'crmBudget',
  'crm-request-log': 'crmRequestLog',
  'fairness-replicas': 'fairnessReplicas',
  'crm-transport': 'crmTransport',
};
const RECORDED_ALONE = new Set(['crmBudget', 'fairness', 'crmRequestLog', 'fairnessReplicas', 'crmTransport']);
const figureOf = (name: string): Figure<unknown> | undefined => FIGURES[name] ?? EXTRA_FIGURES[name];

async function main() {
  const names = only === null ? Object.keys(FIGURES) : [ALIASES[only] ?? only];
  if (!figureOf(names[0]))
    throw new Error(`--only takes one of ${[...Object.keys(FIGURES), ...Object.keys(EXTRA_FIGURES), ...Object.keys(ALIASES)].join(', ')}`);
  // Read around the apps' build (tools/scripts/bench.mjs): what is measured is the tree the build saw, whatever changes during the run.
  const commit = benchCommit();
  const figures: Record<string, unknown> = {};
  const starts: Record<string, MachineAtStart> = {};
  for (const name of names) {
    starts[name] = await machineAtStart(name);
    figures[name] = await figureOf(name)!.run();
    log(`${name}: ${JSON.stringify(figures[name])}`);
  }
  if (only !== null && !RECORDED_ALONE.has(names[0])) return;
  record({
    commit,
    figures,
    starts,
    rows: names.flatMap((name) => figureOf(name)!.rows(figures[name])),
    notes: names.flatMap((name) => figureOf(name)!.notes?.(figures[name]) ?? []),
    partial: only !== null,
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
