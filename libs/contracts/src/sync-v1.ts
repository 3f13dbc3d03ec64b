import type { FromWireSchema } from './validation';
import { ACTIONS } from './enums';
import { changeTimeSchema } from './change-time';
import { MAX_SYNC_MESSAGES, objectIdSchema, optionalPropertyMapSchema } from './common-schemas';

export type { PropertyValue } from './common-schemas';

/** SPEC.md "Sync message (v1)". `changeOccurredTimestamp`: see changeTimeSchema. */
export const v1SyncMessageSchema = {
  type: 'object',
  required: ['integratorObjectId', 'action'],
  additionalProperties: false,
  properties: {
    integratorObjectId: objectIdSchema,
    action: { type: 'string', enum: ACTIONS, errorHint: `must be one of ${ACTIONS.join(', ')}` },
    changeOccurredTimestamp: changeTimeSchema,
    propertyNameToValues: optionalPropertyMapSchema,
  },
} as const;
export type V1SyncMessage = FromWireSchema<typeof v1SyncMessageSchema>;

/** PUT /extensions/ecomm/v1/sync-messages/{objectType}: 1 to 200 messages. */
export const v1SyncMessagesSchema = {
  $id: 'v1-sync-messages',
  type: 'array',
  minItems: 1,
  maxItems: MAX_SYNC_MESSAGES,
  items: v1SyncMessageSchema,
  errorHint: `must be an array of 1 to ${MAX_SYNC_MESSAGES} sync messages`,
} as const;
