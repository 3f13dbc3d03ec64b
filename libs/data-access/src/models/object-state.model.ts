import { Schema, type Connection } from 'mongoose';
import { OBJECT_TYPES } from '@ecomm-sync/contracts';

/** The merged raw state of one sender object (domain RawObjectState), with its revision. */
const objectStateSchema = new Schema(
  {
    /** The natural key as one string (keyString): what every read and write of the hot path goes by. */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    objectType: { type: String, enum: OBJECT_TYPES, required: true },
    externalObjectId: { type: String, required: true },
    /** [name, value, changedAt] triples. */
    properties: { type: [Schema.Types.Mixed], default: [] },
    /** [objectType, ids, changedAt] triples. */
    associations: { type: [Schema.Types.Mixed], default: [] },
    deletedAt: { type: Number, default: null },
    upsertedAt: { type: Number, default: null },
    rev: { type: Number, required: true },
    /** Identifies the last writer, so a conditional write can tell whether it won. */
    writeToken: { type: String, required: true },
    /**
     * When the oldest revision not applied yet was accepted (the batch's receipt). The alerts' sync
     * lag: the read of the lag removes it once object_syncs holds the revision processed (applied,
     * or failed); the applier writes nothing here (ObjectStateRepository.oldestUnapplied).
     */
    unappliedSince: { type: Number },
  },
  { collection: 'object_states', versionKey: false },
);
// The _id serves reading the states of a batch's objects (`_id: {$in}`), one state per object, and
// the conditional write of a state (`{_id, rev}`, compare and set; decision 15, addendum of 2026-11-27, night).

// Serves: re-apply pages of an application's objects (settings owner app:<appId>), by _id.
objectStateSchema.index({ appId: 1, objectType: 1, _id: 1 });
// Serves: re-apply pages of a portal's objects in direct mode (owner portal:<portalId>), by _id.
objectStateSchema.index({ portalId: 1, appId: 1, objectType: 1, _id: 1 });

// Serves: the alert evaluator's sync lag, a tenant's marked states oldest first
// (`{portalId, appId, unappliedSince: {$gte: 0}}` sorted by unappliedSince, read in pages; decision 0053).
objectStateSchema.index({ portalId: 1, appId: 1, unappliedSince: 1 });
// Serves: the same for one store's rule (`{portalId, appId, storeId, unappliedSince: {$gte: 0}}`):
// without it, each evaluation read every marked state of the tenant to find the store's.
objectStateSchema.index({ portalId: 1, appId: 1, storeId: 1, unappliedSince: 1 });

export const objectStateModel = (connection: Connection) => connection.model('ObjectState', objectStateSchema);
