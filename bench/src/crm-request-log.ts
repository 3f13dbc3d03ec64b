/**
 * The CRM request log's cost (issue 29, decision 0051): the end-to-end and CRM budget figures run
 * twice, with CRM_REQUEST_LOG=off and then on, in the same run on the same machine; the figure is
 * their throughput with the log on ÷ off (the issue asks ≥ 0.95).
 */
import { benchCrmBudget } from './crm-budget';
import { benchEndToEnd } from './end-to-end';
import { log, SIZES } from './options';
import { round } from './stats';

interface Pair {
  offObjectsPerSecond: number;
  onObjectsPerSecond: number;
  /** On ÷ off. */
  ratio: number;
}

export interface CrmRequestLogFigure {
  e2e: Pair | null;
  crmBudget: Pair | null;
}

const pair = (off: number, on: number): Pair => ({ offObjectsPerSecond: off, onObjectsPerSecond: on, ratio: round(on / off, 3) });
const withLog = (state: 'on' | 'off') => ({ CRM_REQUEST_LOG: state });

/** `figures`: e2e and/or crm-budget (`--log-figures`). */
export async function benchCrmRequestLog(figures: string[]): Promise<CrmRequestLogFigure> {
  const unknown = figures.filter((name) => name !== 'e2e' && name !== 'crm-budget');
  if (unknown.length > 0) throw new Error(`--log-figures takes e2e and crm-budget, not ${unknown.join(', ')}`);
  let e2e: Pair | null = null;
  let crmBudget: Pair | null = null;
  if (figures.includes('e2e')) {
    log('crm request log: end to end with the log off, then on');
    const off = await benchEndToEnd(withLog('off'));
    const on = await benchEndToEnd(withLog('on'));
    e2e = pair(off.objectsPerSecond, on.objectsPerSecond);
    log(`crm request log: end to end ${JSON.stringify(e2e)}`);
  }
  if (figures.includes('crm-budget')) {
    log('crm request log: CRM budget with the log off, then on');
    const options = { ...SIZES.crmBudget, crmMaxWaitMs: null, resumePatienceMs: null, crmLatencyMs: null, chunksAtOnce: null };
    const off = await benchCrmBudget({ ...options, env: withLog('off') });
    const on = await benchCrmBudget({ ...options, env: withLog('on') });
    crmBudget = pair(off.objectsPerSecond, on.objectsPerSecond);
    log(`crm request log: CRM budget ${JSON.stringify(crmBudget)}`);
  }
  return { e2e, crmBudget };
}

/** The figure's rows in the results table. */
export function crmRequestLogRows(figure: CrmRequestLogFigure): string[] {
  const row = (name: string, p: Pair | null) =>
    p ? [`| ${name} with the CRM request log on ÷ off, objects/s | ${p.onObjectsPerSecond} | ${p.offObjectsPerSecond} (log off) | ${p.ratio} | ≥ 0.95 |`] : [];
  return [...row('End to end', figure.e2e), ...row('CRM budget (two appliers, 190 per 10 s)', figure.crmBudget)];
}
