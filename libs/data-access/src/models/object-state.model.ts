import { Schema, type Connection } from 'mongoose';
import { OBJECT_TYPES } from '@ecomm-sync/contracts';

/** The merged raw state of one sender object (domain RawObjectState), with its revision. */
const objectStateSchema = new Schema(
  {
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
  },
  { collection: 'object_states', versionKey: false },
);
// Serves: reading and conditionally writing the states of a batch's objects.
objectStateSchema.index({ portalId: 1, appId: 1, storeId: 1, objectType: 1, externalObjectId: 1 }, { unique: true });

// Serves: re-apply pages of an application's objects (settings owner app:<appId>), by _id.
objectStateSchema.index({ appId: 1, objectType: 1, _id: 1 });
// Serves: re-apply pages of a portal's objects in direct mode (owner portal:<portalId>), by _id.
objectStateSchema.index({ portalId: 1, appId: 1, objectType: 1, _id: 1 });

export const objectStateModel = (connection: Connection) => connection.model('ObjectState', objectStateSchema);
