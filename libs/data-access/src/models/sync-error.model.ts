import { Schema, type Connection } from 'mongoose';
import { ERROR_STATUSES, ERROR_TYPES, OBJECT_TYPES } from '@ecomm-sync/contracts';

const syncErrorSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    objectType: { type: String, enum: OBJECT_TYPES, required: true },
    externalObjectId: { type: String, required: true },
    /** Revision of the object state that failed: with type, makes recording idempotent. */
    rev: { type: Number, required: true },
    settingsRev: { type: Number, required: true, default: 0 },
    type: { type: String, enum: ERROR_TYPES, required: true },
    details: { type: String, required: true },
    /** When the CRM refused the write: its status, category and correlation id (absent otherwise). */
    crm: { type: { status: Number, category: String, correlationId: String, _id: false }, default: undefined },
    changedAt: { type: Number, required: true },
    erroredAt: { type: Number, required: true },
    status: { type: String, enum: ERROR_STATUSES, required: true },
    resolvedAt: { type: Number, default: null },
    /** The batch an error says was set aside before it was merged: open until that batch is merged (absent otherwise). */
    setAsideBatchId: { type: String, default: undefined },
  },
  { collection: 'sync_errors', versionKey: false },
);
// Serves: idempotent recording, and the open errors of a batch's objects (resolving them).
syncErrorSchema.index({ portalId: 1, appId: 1, storeId: 1, objectType: 1, externalObjectId: 1, rev: 1, settingsRev: 1, type: 1 }, { unique: true });
// Listings sort newest first with `_id` as the tie-break ({erroredAt: -1, _id: -1}): an index
// ending in both hands a page over in order; without `_id` the server sorts every match per page.
// Serves: error listings of a tenant, newest first, by status (open errors, the default).
syncErrorSchema.index({ portalId: 1, appId: 1, status: 1, erroredAt: -1, _id: -1 });
// Serves: a portal's open errors across applications (the v1 and v2 portal listings), newest first.
syncErrorSchema.index({ portalId: 1, status: 1, erroredAt: -1, _id: -1 });
// Serves: an application's open errors across its portals, newest first.
syncErrorSchema.index({ appId: 1, status: 1, erroredAt: -1, _id: -1 });
// Serves: error listings of a portal across applications with resolved ones, newest first.
syncErrorSchema.index({ portalId: 1, erroredAt: -1 });
// Serves: error listings of an application across its portals with resolved ones, newest first.
syncErrorSchema.index({ appId: 1, erroredAt: -1 });
// Serves: a portal's open errors of one type in order (catching up after the portal is enabled).
syncErrorSchema.index({ portalId: 1, type: 1, status: 1, _id: 1 });

export const syncErrorModel = (connection: Connection) => connection.model('SyncError', syncErrorSchema);
