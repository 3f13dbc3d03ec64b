import { Schema, type Connection } from 'mongoose';

/**
 * A change that cannot apply yet because objects it associates with are not synced (a line item
 * before its deal or product), or that applied without some associations (a deal before its
 * contacts). Kept until they arrive or the window ends (DESIGN.md).
 */
const waitingObjectSchema = new Schema(
  {
    /** The natural key as one string (keyString). */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    objectType: { type: String, required: true },
    externalObjectId: { type: String, required: true },
    /** The mapped change to apply, as the applier received it. */
    change: { type: Schema.Types.Mixed, required: true },
    /** What it waits for, as `<OBJECT_TYPE>:<externalObjectId>`. */
    waitingFor: { type: [String], required: true },
    since: { type: Number, required: true },
    until: { type: Number, required: true },
    /** Applied already; written again for its associations when what it waits for arrives (a deal before its contacts). */
    reapply: { type: Boolean, default: false },
    /** When it was last tried: the periodic retry takes the least recently tried first. */
    triedAt: { type: Number, required: true },
  },
  { collection: 'waiting_objects', versionKey: false },
);
// The _id serves one waiting change per object (replaced by a newer one), releasing a batch's objects
// (`_id: {$in}`), and compare-and-set writes of kept changes on the revision they read (decision 15,
// addendum of 2026-11-27, night).
// Serves: the waiting changes an arriving deal or product releases.
waitingObjectSchema.index({ portalId: 1, appId: 1, storeId: 1, waitingFor: 1 });
// Serves: forgetting changes whose window ended.
waitingObjectSchema.index({ until: 1 });
// Serves: the periodic retry of waiting changes, least recently tried first.
waitingObjectSchema.index({ triedAt: 1 });

export const waitingObjectModel = (connection: Connection) => connection.model('WaitingObject', waitingObjectSchema);
