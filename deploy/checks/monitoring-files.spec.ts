import { readFileSync } from 'node:fs';
import path from 'node:path';
import { alertRuleProblems, dashboardProblems, promqlProblems } from './monitoring-files';
import { readYamlDocuments } from './yaml-documents';

const MONITORING = path.join(__dirname, '..', 'monitoring');
const rules = () => readYamlDocuments(path.join(MONITORING, 'alert-rules.yaml'))[0] as { groups: { rules: Record<string, unknown>[] }[] };
const dashboard = () => JSON.parse(readFileSync(path.join(MONITORING, 'grafana-dashboard.json'), 'utf8'));

describe('the monitoring files in deploy/monitoring', () => {
  it('when the alert rules are checked, then every rule is well formed and its PromQL parses', () => {
    expect(alertRuleProblems(rules())).toEqual([]);
  });

  it('when the alerts are listed, then the four the issue asks for are there', () => {
    const alerts = rules().groups.flatMap((group) => group.rules.map((rule) => rule.alert));
    expect(alerts).toEqual(expect.arrayContaining(['EcommSyncDeadLettersWaiting', 'EcommSyncLagHigh', 'EcommSyncCrmRateLimited', 'EcommSyncServiceNotReady']));
  });

  it('when the Grafana dashboard is checked, then it is well formed and every query parses', () => {
    expect(dashboardProblems(dashboard())).toEqual([]);
  });

  it.each([
    ['sum(rate(x[5m])) > 0', true],
    ['histogram_quantile(0.95, sum by (le) (rate(x_bucket[10m])))', true],
    ['sum(rate(x[5m]) > ', false],
    ['rate(x[5m]', false],
    ['sum(x) by', false],
    ['', false],
  ])('when the expression %p is parsed, then it parses: %p', (expression, parses) => {
    expect(promqlProblems(expression).length === 0).toBe(parses);
  });

  it('when an alert expression is broken and its severity missing, then the rule check names both', () => {
    const broken = rules();
    broken.groups[0].rules[0].expr = 'max by (queue) (ecomm_dead_letter_queue_messages > 0';
    delete (broken.groups[0].rules[0].labels as Record<string, unknown>).severity;
    const problems = alertRuleProblems(broken);
    expect(problems).toEqual([
      expect.stringMatching(/^rule EcommSyncDeadLettersWaiting: syntax error/),
      'rule EcommSyncDeadLettersWaiting: labels.severity must be critical, warning or info',
    ]);
  });

  it('when a dashboard query is broken and two panels share an id, then the dashboard check names both', () => {
    const broken = dashboard();
    broken.panels[1].id = broken.panels[0].id;
    broken.panels[2].targets[0].expr = 'histogram_quantile(0.5, sum by (le) (rate(ecomm_sync_lag_seconds_bucket[5m]))';
    expect(dashboardProblems(broken)).toEqual([
      expect.stringMatching(/^panel 1 \(HTTP latency p95 by route\): id must be a unique number/),
      expect.stringMatching(/^panel 3 \(Sync lag .*\) target A: syntax error/),
    ]);
  });
});
