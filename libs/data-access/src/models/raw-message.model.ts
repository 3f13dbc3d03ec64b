import { Schema, type Connection } from 'mongoose';
import { ACTIONS, OBJECT_TYPES } from '@ecomm-sync/contracts';

/**
 * The log of every message as received, in the sender's property names. Append-only. One document
 * per accepted batch (decision 0055); documents written before it hold one message each (the
 * fields marked "older"), and are read alike.
 */
const rawMessageSchema = new Schema(
  {
    /** The batch id (`<batchId>#<n>` for a large batch's next documents): a redelivered batch inserts nothing twice. Older: `<batchId>:<seq>`. */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    objectType: { type: String, enum: OBJECT_TYPES, required: true },
    receivedAt: { type: Number, required: true },
    source: { type: String, required: true },
    /** The batch's id on each of its documents (a batch near 16 MB is several: `<batchId>#<n>`). */
    batchId: { type: String },
    /** The position in the batch of this document's first message, and how many it holds. */
    first: { type: Number },
    count: { type: Number },
    /** The ids of the objects the batch carries, once each: what an object's history is found by. */
    objectIds: { type: [String], default: undefined },
    /** The messages in the order sent: `{externalObjectId, action, changedAt, properties: [name, value][], associations}`. */
    messages: { type: [Schema.Types.Mixed], default: undefined },
    /** Older, one document per message: */
    seq: { type: Number },
    externalObjectId: { type: String },
    action: { type: String, enum: ACTIONS },
    changedAt: { type: Number },
    properties: { type: [Schema.Types.Mixed], default: undefined },
    associations: { type: Schema.Types.Mixed },
  },
  { collection: 'raw_messages', versionKey: false },
);
// Serves: the history of one object (the inspector), in the batches that carry it.
rawMessageSchema.index({ portalId: 1, appId: 1, storeId: 1, objectType: 1, objectIds: 1 });
// Serves: the history of one object in the older documents of one message each.
rawMessageSchema.index({ portalId: 1, appId: 1, storeId: 1, objectType: 1, externalObjectId: 1 });

export const rawMessageModel = (connection: Connection) => connection.model('RawMessage', rawMessageSchema);
