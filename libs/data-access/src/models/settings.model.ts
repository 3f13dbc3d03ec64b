import { Schema, type Connection } from 'mongoose';
import { DATA_TYPES } from '@ecomm-sync/contracts';

const mappingSchema = new Schema(
  {
    externalPropertyName: { type: String, required: true },
    crmPropertyName: { type: String, required: true },
    dataType: { type: String, enum: DATA_TYPES, required: true },
  },
  { _id: false },
);

const settingsSchema = new Schema(
  {
    /** `app:<appId>` in application mode, `portal:<portalId>` in direct mode (DESIGN.md, Tenancy). */
    owner: { type: String, required: true },
    enabled: { type: Boolean, required: true, default: false },
    importOnInstall: { type: Boolean, required: true, default: false },
    webhookUri: { type: String, default: null },
    mappings: {
      CONTACT: { type: [mappingSchema], default: [] },
      DEAL: { type: [mappingSchema], default: [] },
      PRODUCT: { type: [mappingSchema], default: [] },
      LINE_ITEM: { type: [mappingSchema], default: [] },
    },
    /** Grows with every change; the mapper re-maps stored state when it moves. */
    rev: { type: Number, required: true, default: 1 },
    /** Object types whose re-apply a put asked for and that is not queued yet (the broker did not confirm): the next put queues it. */
    reapplyPending: { type: [String], default: [] },
    /** Deleted (SPEC.md: for good): read as no settings; kept so that the next settings' revision goes on from it. */
    removed: { type: Boolean, default: false },
  },
  { collection: 'settings', timestamps: true, versionKey: false, minimize: false },
);
// Serves: settings of a tenant (gateway settings API, mapper on every batch).
settingsSchema.index({ owner: 1 }, { unique: true });

export const settingsModel = (connection: Connection) => connection.model('Settings', settingsSchema);
