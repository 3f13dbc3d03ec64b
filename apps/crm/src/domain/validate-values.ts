import type { PropertyDefinition } from './object-types';

/** Why a value does not fit its property, or null when it does. */
export function valueProblem(definition: PropertyDefinition, value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return 'must be a string, number or boolean';
  const text = String(value);
  switch (definition.type) {
    case 'number':
      return Number.isFinite(Number(text)) ? null : `INVALID_NUMBER: "${text}" is not a number`;
    case 'date':
    case 'datetime':
      return /^-?\d{1,16}$/.test(text) ? null : `INVALID_LONG: "${text}" is not epoch milliseconds`;
    case 'bool':
      return text === 'true' || text === 'false' ? null : `INVALID_BOOLEAN: "${text}" is not true or false`;
    default:
      return text.length <= 65_536 ? null : 'longer than 65536 characters';
  }
}
