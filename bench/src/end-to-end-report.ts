/** The end-to-end figure's rows in the results table, and its memory and CPU as sentences. */
import { databaseWorkNote } from './database-work';
import type { EndToEndFigure } from './end-to-end';

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value}`;

/** The figure's rows in the results table. */
export function endToEndRows(e2e: EndToEndFigure): string[] {
  return [
    `| End to end, objects/s (${e2e.objects} objects, after a warm-up pass at ${e2e.warmUpObjectsPerSecond}) | ${e2e.objectsPerSecond} (p50 ${e2e.p50Ms} ms, p99 ${e2e.p99Ms} ms) | ${e2e.baselineObjectsPerSecond} (driver bulkWrite upserts, median of ${e2e.baselineRuns.join(', ')} after three warm-up runs) | ${e2e.ratio} | ≥ 0.25 |`,
    `| End to end, the baseline on the server as our pass left it | ${e2e.objectsPerSecond} | ${e2e.baselineLoadedObjectsPerSecond} (median of ${e2e.baselineLoadedRuns.join(', ')}) | ${e2e.ratioLoaded} | |`,
    `| End to end, updates (pass 3: every object changed) | ${e2e.updatesPerSecond} | | | |`,
  ];
}

/** Memory and CPU of the run, as sentences below the table. */
export function endToEndNotes(e2e: EndToEndFigure): string[] {
  const memoryLines = Object.entries(e2e.memory)
    .map(
      ([app, m]) =>
        `${app} ${m.startMb} → peak ${m.peakMb}; after passes 1, 2, 3: ${m.afterFirstPassMb}, ${m.afterSecondPassMb}, ${m.afterThirdPassMb} MB (${signed(m.growthMb)} from 2 to 3), ` +
        `V8 heap after the newest full collection ${m.heapAfterFullGcMb.join(', ')} MB (${signed(m.heapGrowthMb)})`,
    )
    .join('; ');
  const cpuLine = Object.entries(e2e.cpuSeconds)
    .map(([name, seconds]) => `${name} ${seconds} s`)
    .join('; ');
  return [
    `Resident memory during the end-to-end run: ${memoryLines}.`,
    `CPU during the end-to-end run (${e2e.wallSeconds} s of wall time, ${e2e.gateMs} ms of it from the last deal group's apply to the first line item sent): ${cpuLine}.`,
    ...databaseWorkNote(e2e.database),
  ];
}
