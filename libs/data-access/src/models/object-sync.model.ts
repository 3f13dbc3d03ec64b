import { Schema, type Connection } from 'mongoose';
import { OBJECT_TYPES } from '@ecomm-sync/contracts';

/**
 * The link from a sender object to its CRM object, and its sync status, in one document:
 * the applier writes both together (docs/decisions/0003-link-and-status-in-one-document.md).
 */
const objectSyncSchema = new Schema(
  {
    /** The natural key as one string (keyString). */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    objectType: { type: String, enum: OBJECT_TYPES, required: true },
    externalObjectId: { type: String, required: true },
    crmId: { type: Number, default: null },
    /** Incarnation the link belongs to (a delete then a newer upsert makes a new CRM object). */
    generation: { type: Number, default: 0 },
    archived: { type: Boolean, default: false },
    /** Newest revision processed; older revisions are skipped. */
    appliedRev: { type: Number, default: 0 },
    /** Settings revision the applied revision was mapped with (a re-map after a settings change is newer). */
    appliedSettingsRev: { type: Number, default: 0 },
    lastProcessedAt: { type: Number, default: null },
    changedAt: { type: Number, default: null },
    /** Token of the writer that last claimed the object for a CRM write; a record lands only under its own claim. */
    claim: { type: String, default: null },
  },
  { collection: 'object_syncs', versionKey: false },
);
// The _id serves links and status of a batch's objects (applier, `_id: {$in}`), one object's status
// (status endpoints), and claiming an object and recording under one's own claim (compare and set
// on `claim`; decision 15, addendum of 2026-11-27, night).

export const objectSyncModel = (connection: Connection) => connection.model('ObjectSync', objectSyncSchema);
