/** What the bench reads about its processes from /proc (Linux): resident memory, CPU seconds, and the heap each app kept. */
import fs from 'node:fs';
import type { AppName, TestStack } from '@ecomm-sync/testing';
import { round } from './stats';

export const rssMb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
};

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export const cpuSeconds = (pid: number): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
};

/** The V8 heap an app kept after its newest full collection, from its --trace-gc output. */
export function heapAfterFullGcMb(stack: TestStack, app: AppName): number {
  const collections = [...stack.output(app).matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(/g)];
  return collections.length > 0 ? Number(collections[collections.length - 1][1]) : NaN;
}

/** Samples the resident memory of the stack's processes: where each started, its peak, and now. */
export function memorySampler(stack: TestStack, apps: AppName[]) {
  const samples = new Map<AppName, number[]>(apps.map((app) => [app, []]));
  const sample = () => apps.forEach((app) => samples.get(app)!.push(rssMb(stack.pid(app))));
  sample();
  const timer = setInterval(sample, 250);
  return {
    /** Resident memory now, and the heap kept after the newest full collection. */
    now: () =>
      Object.fromEntries(apps.map((app) => [app, { rssMb: round(rssMb(stack.pid(app))), heapMb: heapAfterFullGcMb(stack, app) }])) as Record<
        AppName,
        { rssMb: number; heapMb: number }
      >,
    stop: () => {
      clearInterval(timer);
      return Object.fromEntries([...samples].map(([app, values]) => [app, { startMb: round(values[0]), peakMb: round(Math.max(...values)) }])) as Record<
        AppName,
        { startMb: number; peakMb: number }
      >;
    },
  };
}
