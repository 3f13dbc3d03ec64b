/**
 * Bench hygiene: what the machine was doing when a figure started. A figure measured beside other
 * work (a test suite, another stack) is not comparable, so each figure waits briefly for the CPUs
 * to be idle, records the load average and the CPUs' busy share at its start, and the run refuses
 * to record figures taken on a busy machine (`--noisy` records them, marked).
 */
import fs from 'node:fs';
import os from 'node:os';
import { benchConfig } from './config';
import { round } from './stats';

/** All CPUs busier than this share over the sample, with the bench itself idle, is not quiet. */
const BUSY_LIMIT = 0.2;
const SAMPLE_MS = 2000;
/** How long a figure waits for the machine to settle (the previous figure's stack stopping). */
const SETTLE_MS = 30_000;

export interface MachineAtStart {
  /** os.loadavg(): 1, 5 and 15 minutes. The 1-minute value still carries the previous figure's work. */
  loadAverage: [number, number, number];
  /** Share of all CPU time spent busy over the 2 s before the figure began (other processes: the bench is idle then). */
  busyShare: number;
  quiet: boolean;
}

function cpuTimes(): { busy: number; total: number } {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  const idle = fields[3] + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

async function busyShareOver(ms: number): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  return (after.busy - before.busy) / Math.max(1, after.total - before.total);
}

/** Waits up to 30 s for a quiet machine; tells what it found. */
export async function machineAtStart(figure: string): Promise<MachineAtStart> {
  const deadline = Date.now() + SETTLE_MS;
  let busyShare = await busyShareOver(SAMPLE_MS);
  while (busyShare > BUSY_LIMIT && Date.now() < deadline) busyShare = await busyShareOver(SAMPLE_MS);
  const loadAverage = os.loadavg().map((value) => round(value, 2)) as [number, number, number];
  const quiet = busyShare <= BUSY_LIMIT;
  console.log(
    `[bench] ${figure}: load average ${loadAverage.join(', ')}, CPUs ${Math.round(busyShare * 100)} % busy at the start${quiet ? '' : ' (NOT QUIET: something else is running)'}`,
  );
  return { loadAverage, busyShare: round(busyShare, 2), quiet };
}

/** Why a run may not be recorded: the figures that started on a busy machine. */
export function noisyFigures(starts: Record<string, MachineAtStart>): string[] {
  return Object.entries(starts)
    .filter(([, start]) => !start.quiet)
    .map(([figure, start]) => `${figure} (CPUs ${Math.round(start.busyShare * 100)} % busy, load ${start.loadAverage[0]})`);
}

/** The commit the figures were measured at, as BENCH_COMMIT hands it over: `npm run bench` reads it around its build (commitMeasured in tools/scripts/commit-measured.mjs). */
export function benchCommit(): string {
  return benchConfig.BENCH_COMMIT ?? 'unknown commit (not run through npm run bench)';
}

export const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGb: round(os.totalmem() / 2 ** 30),
  node: process.version,
};
export type Machine = typeof machine;
