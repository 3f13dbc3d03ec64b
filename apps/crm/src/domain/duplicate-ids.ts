import { CrmError } from './crm-error';

/**
 * A batch update or upsert naming one record twice is refused whole by the hosted CRM: 400
 * VALIDATION_ERROR "Duplicate IDs found in batch input: [..]. IDs must be unique", the ids in
 * `context.ids`. Null when every id comes once.
 */
export function duplicateIdsError(ids: readonly string[]): CrmError | null {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  if (twice.size === 0) return null;
  const named = [...twice];
  return CrmError.invalidInput(`Duplicate IDs found in batch input: [${named.join(', ')}]. IDs must be unique`, { context: { ids: named } });
}
