import type { FromWireSchema } from './validation';
import { OBJECT_TYPES } from './enums';

export const MAX_SYNC_MESSAGES = 200;
export const MAX_IMPORT_MESSAGES = 500;
export const MAX_OBJECT_ID_LENGTH = 100;

export const objectIdSchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_OBJECT_ID_LENGTH,
  pattern: '^[\\x00-\\x7F]*$',
  errorHint: 'must be an ASCII string of 1 to 100 characters',
} as const;

export const objectTypeSchema = { type: 'string', enum: OBJECT_TYPES, errorHint: `must be one of ${OBJECT_TYPES.join(', ')}` } as const;

export const epochMillisSchema = { type: 'integer', minimum: 0, maximum: 8640000000000000 } as const;

/**
 * The longest property value and name a request may carry (docs/security.md, finding 2): every
 * value a shared worker parses is bounded, so no single value can hold it long. The hosted CRM
 * itself keeps at most 65,536 characters in a property.
 */
export const MAX_PROPERTY_VALUE_LENGTH = 65_536;
export const MAX_PROPERTY_NAME_LENGTH = 256;

/** A property value as senders send it: any JSON scalar; null clears the property. */
export const propertyValueSchema = {
  type: ['string', 'number', 'boolean', 'null'],
  maxUtf16Length: MAX_PROPERTY_VALUE_LENGTH,
  exactInteger: true,
  errorHint: `must be a string of at most ${MAX_PROPERTY_VALUE_LENGTH} characters, a number (a whole number beyond 9007199254740991 as a string, to keep its digits), a boolean or null`,
} as const;
export type PropertyValue = FromWireSchema<typeof propertyValueSchema>;

/** The sender's properties of one message, as a request may carry them. */
export const propertyMapSchema = {
  type: 'object',
  maxProperties: 1000,
  propertyNames: { minLength: 1, maxLength: MAX_PROPERTY_NAME_LENGTH, errorHint: `a property name must be 1 to ${MAX_PROPERTY_NAME_LENGTH} characters` },
  additionalProperties: propertyValueSchema,
} as const;

/**
 * An optional property map of a sender's message: null is taken as left out (decision 0060), as
 * client libraries that write every field of their model send it.
 */
export const optionalPropertyMapSchema = {
  ...propertyMapSchema,
  type: ['object', 'null'],
  errorHint: 'must be a map of property names to values (or null, the same as leaving it out)',
} as const;

/**
 * The same inside the service (queue messages): not bounded again, so that a message accepted
 * before a limit was lowered is still processed, never dead-lettered for it.
 */
export const acceptedPropertyMapSchema = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
} as const;
