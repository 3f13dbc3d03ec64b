import type { ConfigSchema } from './load-config';

export interface ServiceSchema {
  service: string;
  schema: ConfigSchema;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const defaultOf = (key: ConfigSchema[string]) => (key.default !== undefined ? `\`${String(key.default)}\`` : key.optional ? '(unset)' : '**required**');

/**
 * One Markdown table of every environment variable of every service: a variable that means the
 * same in several services is one row naming them all; one whose default or meaning differs has a
 * row per variant.
 */
export function renderConfigReference(services: readonly ServiceSchema[]): string {
  const rows = new Map<string, { name: string; services: string[]; fallback: string; doc: string }>();
  for (const { service, schema } of services) {
    for (const [name, key] of Object.entries(schema)) {
      const fallback = defaultOf(key);
      const doc = key.values
        ? `${key.doc} (one of ${key.values.join(', ')})`
        : key.offOrAtLeast !== undefined
          ? `${key.doc} (0, or at least ${key.offOrAtLeast})`
          : key.atLeast !== undefined || key.atMost !== undefined
            ? `${key.doc} (${[key.atLeast !== undefined ? `at least ${key.atLeast}` : '', key.atMost !== undefined ? `at most ${key.atMost}` : ''].filter(Boolean).join(', ')})`
            : key.doc;
      const id = `${name}\u0000${fallback}\u0000${doc}`;
      const row = rows.get(id) ?? { name, services: [], fallback, doc };
      row.services.push(service);
      rows.set(id, row);
    }
  }
  const sorted = [...rows.values()].sort((a, b) => a.name.localeCompare(b.name) || a.services[0].localeCompare(b.services[0]));
  return [
    '| Variable | Services | Default | Meaning |',
    '|---|---|---|---|',
    ...sorted.map((row) => `| \`${row.name}\` | ${row.services.join(', ')} | ${cell(row.fallback)} | ${cell(row.doc)} |`),
  ].join('\n');
}
