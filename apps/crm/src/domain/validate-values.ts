import type { CrmType, PropertyDefinition } from './object-types';
import { isoDateMillis } from './iso-dates';

/** Why a value does not fit its property: the hosted CRM's code for it, and a sentence. */
export interface ValueProblem {
  code: string;
  message: string;
}

/**
 * A value as the CRM stores it, once it fits its property (valueProblem): text, and a date or
 * date-time given as ISO 8601 as its epoch milliseconds (what a read then answers).
 */
export function storedValue(definition: PropertyDefinition | undefined, value: string | number | boolean): string {
  const text = String(value);
  if ((definition?.type === 'date' || definition?.type === 'datetime') && !/^-?\d+$/.test(text)) return isoDateMillis(definition.type, text) ?? text;
  return text;
}

/** A number property's value: one way to match each digit run (linear on a long one). */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Why a value does not fit its property, or null when it does. The messages are the hosted CRM's
 * where they are known (INVALID_LONG, INVALID_DATE, INVALID_EMAIL, a boolean's INVALID_OPTION).
 */
export function valueProblem(objectType: CrmType, definition: PropertyDefinition, value: unknown): ValueProblem | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return { code: 'INVALID_PROPERTY_VALUE', message: 'must be a string, number or boolean' };
  const text = String(value);
  if (objectType === 'contacts' && definition.name === 'email') return emailProblem(text);
  switch (definition.type) {
    case 'number':
      // The hosted CRM takes digits, one optional leading minus and one optional point only: no
      // exponent, no plus, no spaces, no grouping (its changelog "A change for number properties").
      return PLAIN_NUMBER.test(text)
        ? null
        : { code: 'INVALID_NUMBER', message: `"${text}" is not a number (digits, an optional leading minus and one point)` };
    case 'date':
    case 'datetime': {
      // Epoch milliseconds, or ISO 8601 text (a day for a date, a UTC date-time for a date-time), as the hosted CRM takes them.
      const millis = /^-?\d{1,16}$/.test(text) ? text : isoDateMillis(definition.type, text);
      if (millis === null) return { code: 'INVALID_LONG', message: `${text} was not a valid long.` };
      return definition.type === 'date' ? midnightProblem(millis) : null;
    }
    case 'bool':
      // The hosted CRM's booleans are an enumeration of two options.
      return text === 'true' || text === 'false' ? null : { code: 'INVALID_OPTION', message: `${text} was not one of the allowed options: [true, false]` };
    case 'enumeration':
      return optionProblem(definition, text);
    default:
      return text.length <= 65_536 ? null : { code: 'INVALID_PROPERTY_VALUE', message: 'longer than 65536 characters' };
  }
}

const DAY_MS = 86_400_000n;

/**
 * A date property (a day, no time) takes only midnight UTC of its day, as the hosted CRM refuses
 * any other time: INVALID_DATE, naming the time of day it was given in the hosted CRM's words
 * (`1606768561954 is at 20:36:1.954 UTC, not midnight!`: no leading zeros).
 */
function midnightProblem(millis: string): ValueProblem | null {
  // As an exact integer: a double rounds 16 digits, and a rounded value could land on midnight.
  const into = Number(((BigInt(millis) % DAY_MS) + DAY_MS) % DAY_MS);
  if (into === 0) return null;
  const time = [Math.floor(into / 3_600_000), Math.floor(into / 60_000) % 60, Math.floor(into / 1000) % 60].join(':');
  return { code: 'INVALID_DATE', message: `${millis} is at ${time}.${into % 1000} UTC, not midnight!` };
}

/** One label of a domain name: letters, digits and inner hyphens. */
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * A contact's e-mail address, as the hosted CRM checks it (its "How does HubSpot validate email
 * addresses"): an RFC 2822 address without a quoted local part, whose domain ends in a top-level
 * domain; here any of two letters or more, or an internationalised one (`xn--`), stands for its list.
 */
function emailProblem(text: string): ValueProblem | null {
  const at = text.lastIndexOf('@');
  const local = text.slice(0, at);
  const labels = text.slice(at + 1).split('.');
  const tld = labels[labels.length - 1];
  const valid =
    at > 0 &&
    local.length <= 64 &&
    text.length <= 254 &&
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    (/^[a-z]{2,63}$/i.test(tld) || /^xn--[a-z0-9-]{1,59}$/i.test(tld));
  return valid ? null : { code: 'INVALID_EMAIL', message: `Email address ${text} is invalid` };
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
