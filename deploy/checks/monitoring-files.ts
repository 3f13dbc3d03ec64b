import { parser } from '@prometheus-io/lezer-promql';

/** Syntax errors of a PromQL expression (the Prometheus UI's own lezer grammar); empty: it parses. */
export function promqlProblems(expression: string): string[] {
  const problems: string[] = [];
  if (expression.trim() === '') return ['empty expression'];
  parser.parse(expression).iterate({
    enter: (node) => {
      if (node.type.isError) problems.push(`syntax error at ${node.from}: "${expression.slice(Math.max(0, node.from - 10), node.to + 10).trim()}"`);
    },
  });
  return problems;
}

const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;

interface Rule {
  alert?: string;
  record?: string;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A Prometheus rule file: groups of named rules, each alert with a parsing expression, a duration, a severity and a summary. */
export function alertRuleProblems(file: unknown): string[] {
  const groups = (file as { groups?: unknown })?.groups;
  if (!Array.isArray(groups) || groups.length === 0) return ['no groups'];
  const problems: string[] = [];
  const names = new Set<string>();
  for (const group of groups as { name?: unknown; rules?: unknown }[]) {
    if (typeof group.name !== 'string' || names.has(group.name)) problems.push(`group ${String(group.name)}: a group needs a unique name`);
    names.add(String(group.name));
    if (!Array.isArray(group.rules) || group.rules.length === 0) {
      problems.push(`group ${String(group.name)}: no rules`);
      continue;
    }
    for (const rule of group.rules as Rule[]) {
      const where = `rule ${rule.alert ?? rule.record ?? '?'}`;
      if (typeof rule.alert !== 'string' && typeof rule.record !== 'string') problems.push(`${where}: needs alert or record`);
      if (typeof rule.expr !== 'string') problems.push(`${where}: expr must be a string`);
      else problems.push(...promqlProblems(rule.expr).map((problem) => `${where}: ${problem}`));
      if (rule.alert !== undefined) {
        if (rule.for !== undefined && (typeof rule.for !== 'string' || !DURATION.test(rule.for))) problems.push(`${where}: for must be a duration such as 5m`);
        if (!['critical', 'warning', 'info'].includes(String(rule.labels?.severity)))
          problems.push(`${where}: labels.severity must be critical, warning or info`);
        if (typeof rule.annotations?.summary !== 'string') problems.push(`${where}: annotations.summary is missing`);
      }
    }
  }
  return problems;
}

interface Panel {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  gridPos?: { x?: unknown; y?: unknown; w?: unknown; h?: unknown };
  targets?: { refId?: unknown; expr?: unknown }[];
  panels?: Panel[];
}

/**
 * A Grafana dashboard as Grafana imports it: uid, title, schemaVersion, panels with unique ids,
 * a type, a title and a position, and Prometheus targets whose expressions parse (Grafana's
 * variables such as $job are replaced by a value first).
 */
export function dashboardProblems(dashboard: unknown): string[] {
  const problems: string[] = [];
  const board = dashboard as { uid?: unknown; title?: unknown; schemaVersion?: unknown; panels?: unknown };
  if (typeof board?.uid !== 'string' || !/^[a-zA-Z0-9_-]{1,40}$/.test(board.uid)) problems.push('uid must be 1 to 40 letters, digits, - or _');
  if (typeof board?.title !== 'string' || board.title === '') problems.push('title is missing');
  if (typeof board?.schemaVersion !== 'number') problems.push('schemaVersion must be a number');
  if (!Array.isArray(board?.panels) || board.panels.length === 0) return [...problems, 'no panels'];
  const ids = new Set<unknown>();
  const visit = (panel: Panel) => {
    const where = `panel ${String(panel.id)} (${String(panel.title)})`;
    if (typeof panel.id !== 'number' || ids.has(panel.id)) problems.push(`${where}: id must be a unique number`);
    ids.add(panel.id);
    if (typeof panel.type !== 'string') problems.push(`${where}: type is missing`);
    if (typeof panel.title !== 'string') problems.push(`${where}: title is missing`);
    const grid = panel.gridPos;
    if (!grid || ![grid.x, grid.y, grid.w, grid.h].every((value) => typeof value === 'number')) problems.push(`${where}: gridPos needs x, y, w and h`);
    for (const target of panel.targets ?? []) {
      if (typeof target.expr !== 'string') {
        problems.push(`${where} target ${String(target.refId)}: expr must be a string`);
        continue;
      }
      const substituted = target.expr.replace(/\$\{?(\w+)\}?/g, 'x');
      problems.push(...promqlProblems(substituted).map((problem) => `${where} target ${String(target.refId)}: ${problem}`));
    }
    for (const inner of panel.panels ?? []) visit(inner);
  };
  for (const panel of board.panels as Panel[]) visit(panel);
  return problems;
}
