import type { Action } from './enums';
import { ACTIONS } from './enums';
import { changeTimeSchema } from './change-time';
import { MAX_SYNC_MESSAGES, objectIdSchema, propertyMapSchema } from './common-schemas';

export type PropertyValue = string | number | boolean | null;

/** SPEC.md "Sync message (v1)". */
export interface V1SyncMessage {
  integratorObjectId: string;
  action: Action;
  /** Epoch ms as a number or numeric string, or an ISO 8601 date-time (changeTimeSchema). */
  changeOccurredTimestamp?: number | string;
  propertyNameToValues?: Record<string, PropertyValue>;
}

export const v1SyncMessageSchema = {
  type: 'object',
  required: ['integratorObjectId', 'action'],
  additionalProperties: false,
  properties: {
    integratorObjectId: objectIdSchema,
    action: { type: 'string', enum: ACTIONS },
    changeOccurredTimestamp: changeTimeSchema,
    propertyNameToValues: propertyMapSchema,
  },
} as const;

/** PUT /extensions/ecomm/v1/sync-messages/{objectType}: 1 to 200 messages. */
export const v1SyncMessagesSchema = {
  $id: 'v1-sync-messages',
  type: 'array',
  minItems: 1,
  maxItems: MAX_SYNC_MESSAGES,
  items: v1SyncMessageSchema,
  errorHint: `must be an array of 1 to ${MAX_SYNC_MESSAGES} sync messages`,
} as const;
