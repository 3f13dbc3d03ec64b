/**
 * Where a run's figures go: bench/results/latest.json and an entry in docs/benchmarks.md naming
 * the command, the commit, the machine and how quiet it was at each figure's start. A run with a
 * figure that started on a busy machine is printed but not recorded (unless `--noisy`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { machine, noisyFigures, type MachineAtStart } from './machine';
import { command, log, quick, recordWhenNoisy, root, SIZES } from './options';

export interface Run {
  /** The commit measured (benchCommit), read by `npm run bench` around its build (BENCH_COMMIT). */
  commit: string;
  /** The figures by name, as written to latest.json. */
  figures: Record<string, unknown>;
  /** The machine at each figure's start. */
  starts: Record<string, MachineAtStart>;
  rows: string[];
  notes: string[];
  /** true: only some figures ran; they replace their own entries in latest.json, the others stay. */
  partial: boolean;
}

const TABLE_HEAD = ['| Figure | Ours | Baseline (same run) | Ratio | Target |', '|---|---|---|---|---|'];

export function record(run: Run): void {
  const table = [...TABLE_HEAD, ...run.rows].join('\n');
  const startsLine = `Machine at each figure's start: ${Object.entries(run.starts)
    .map(([figure, start]) => `${figure} load ${start.loadAverage.join('/')}, CPUs ${Math.round(start.busyShare * 100)} % busy`)
    .join('; ')}.`;
  console.log(`\n${table}\n\n${[...run.notes, startsLine].join('\n')}\n`);
  const noisy = noisyFigures(run.starts);
  if (noisy.length > 0 && !recordWhenNoisy) {
    log(
      `NOT RECORDED: the machine was not quiet when these figures started: ${noisy.join(', ')}. Stop the other work and run again (or pass --noisy to record them marked).`,
    );
    return;
  }
  const date = new Date().toISOString();
  const { commit } = run;
  const file = path.join(root, 'bench', 'results', 'latest.json');
  const previous = run.partial && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const runs = { ...((previous.runs as Record<string, unknown> | undefined) ?? {}) };
  // Each figure's own run says how large it was: a partial run's top-level `quick` and `sizes` are its own, not those of the figures it left.
  for (const figure of Object.keys(run.figures)) runs[figure] = { date, command, commit, quick, sizes: SIZES, start: run.starts[figure] };
  const result = { ...previous, date, command, commit, quick, machine, sizes: SIZES, ...run.figures, runs };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  const noisyNote = noisy.length > 0 ? `\nRecorded with --noisy: not quiet at the start of ${noisy.join(', ')}.\n` : '';
  fs.appendFileSync(
    path.join(root, 'docs', 'benchmarks.md'),
    `\n## ${date}\n\n\`${command}\` at ${commit} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GiB, Node ${machine.node}\n\n${table}\n\n${[...run.notes, startsLine].join('\n')}\n${noisyNote}`,
  );
}
