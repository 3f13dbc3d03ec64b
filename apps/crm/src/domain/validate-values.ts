import type { PropertyDefinition } from './object-types';

/** Why a value does not fit its property: the hosted CRM's code for it, and a sentence. */
export interface ValueProblem {
  code: string;
  message: string;
}

/** A number property's value: one way to match each digit run (linear on a long one). */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Why a value does not fit its property, or null when it does. */
export function valueProblem(definition: PropertyDefinition, value: unknown): ValueProblem | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return { code: 'INVALID_PROPERTY_VALUE', message: 'must be a string, number or boolean' };
  const text = String(value);
  switch (definition.type) {
    case 'number':
      // The hosted CRM takes digits, one optional leading minus and one optional point only: no
      // exponent, no plus, no spaces, no grouping (its changelog "A change for number properties").
      return PLAIN_NUMBER.test(text)
        ? null
        : { code: 'INVALID_NUMBER', message: `"${text}" is not a number (digits, an optional leading minus and one point)` };
    case 'date':
    case 'datetime':
      if (!/^-?\d{1,16}$/.test(text)) return { code: 'INVALID_LONG', message: `"${text}" is not epoch milliseconds` };
      return definition.type === 'date' ? midnightProblem(text) : null;
    case 'bool':
      return text === 'true' || text === 'false' ? null : { code: 'INVALID_BOOLEAN', message: `"${text}" is not true or false` };
    case 'enumeration':
      return optionProblem(definition, text);
    default:
      return text.length <= 65_536 ? null : { code: 'INVALID_PROPERTY_VALUE', message: 'longer than 65536 characters' };
  }
}

const DAY_MS = 86_400_000n;

/**
 * A date property (a day, no time) takes only midnight UTC of its day, as the hosted CRM refuses
 * any other time: INVALID_DATE, naming the time of day it was given.
 */
function midnightProblem(millis: string): ValueProblem | null {
  // As an exact integer: a double rounds 16 digits, and a rounded value could land on midnight.
  const into = ((BigInt(millis) % DAY_MS) + DAY_MS) % DAY_MS;
  if (into === 0n) return null;
  const time = new Date(Number(into)).toISOString().slice(11, 23);
  return { code: 'INVALID_DATE', message: `${millis} is at ${time} UTC, not midnight: a date property takes midnight UTC of its day` };
}

/**
 * An enumeration's value must be one of its options' values (a checkbox's: each of its values, `;`
 * between them), as the hosted CRM refuses it: INVALID_OPTION. An enumeration without options (the
 * deal's stage and pipeline: the pipelines hold those) takes any value.
 */
function optionProblem(definition: PropertyDefinition, text: string): ValueProblem | null {
  if (definition.options.length === 0) return null;
  const allowed = new Set(definition.options.map((option) => option.value));
  const values = definition.fieldType === 'checkbox' ? text.split(';') : [text];
  const outside = values.find((value) => !allowed.has(value));
  if (outside === undefined) return null;
  return { code: 'INVALID_OPTION', message: `"${outside}" was not one of the allowed options: [${[...allowed].join(', ')}]` };
}
