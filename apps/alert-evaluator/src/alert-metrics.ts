import client from 'prom-client';
import { metricsEnabled } from '@ecomm-sync/runtime';

const evaluations = new client.Counter({
  name: 'ecomm_alert_evaluations_total',
  help: 'Alert rules this replica evaluated (a rule is evaluated by one replica per interval)',
});
const notices = new client.Counter({
  name: 'ecomm_alert_notices_total',
  help: 'Alert notices this replica delivered, by destination kind and outcome (sent, failed)',
  labelNames: ['kind', 'outcome'],
});

export function countEvaluations(n: number): void {
  if (metricsEnabled() && n > 0) evaluations.inc(n);
}

export function countNotice(kind: string, outcome: 'sent' | 'failed'): void {
  if (metricsEnabled()) notices.inc({ kind, outcome });
}
