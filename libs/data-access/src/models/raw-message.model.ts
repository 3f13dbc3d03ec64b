import { Schema, type Connection } from 'mongoose';
import { ACTIONS, OBJECT_TYPES } from '@ecomm-sync/contracts';

/** The log of every message as received, in the sender's property names. Append-only. */
const rawMessageSchema = new Schema(
  {
    /** `<batchId>:<seq>`: a redelivered batch inserts nothing twice, with no index beyond _id. */
    _id: { type: String, required: true },
    batchId: { type: String, required: true },
    seq: { type: Number, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    objectType: { type: String, enum: OBJECT_TYPES, required: true },
    externalObjectId: { type: String, required: true },
    action: { type: String, enum: ACTIONS, required: true },
    changedAt: { type: Number, default: null },
    receivedAt: { type: Number, required: true },
    source: { type: String, required: true },
    /** [name, value] pairs: sender names may hold characters MongoDB keys may not. */
    properties: { type: [Schema.Types.Mixed], default: [] },
    associations: { type: Schema.Types.Mixed, default: null },
  },
  { collection: 'raw_messages', versionKey: false },
);
// Serves: the history of one object (support, rebuilding a state).
rawMessageSchema.index({ portalId: 1, appId: 1, storeId: 1, objectType: 1, externalObjectId: 1 });

export const rawMessageModel = (connection: Connection) => connection.model('RawMessage', rawMessageSchema);
