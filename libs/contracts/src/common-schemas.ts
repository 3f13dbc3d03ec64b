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

export const objectTypeSchema = { type: 'string', enum: OBJECT_TYPES } as const;

export const epochMillisSchema = { type: 'integer', minimum: 0, maximum: 8640000000000000 } as const;

/** A property value as senders send it: any JSON scalar; null clears the property. */
export const propertyValueSchema = { type: ['string', 'number', 'boolean', 'null'], errorHint: 'must be a string, number, boolean or null' } as const;
export type PropertyValue = FromWireSchema<typeof propertyValueSchema>;

export const propertyMapSchema = {
  type: 'object',
  maxProperties: 1000,
  propertyNames: { minLength: 1, maxLength: 256 },
  additionalProperties: propertyValueSchema,
} as const;
