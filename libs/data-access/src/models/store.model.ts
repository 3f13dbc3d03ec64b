import { Schema, type Connection } from 'mongoose';

const storeSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    label: { type: String, required: true },
    adminUri: { type: String, default: null },
  },
  { collection: 'stores', timestamps: true, versionKey: false },
);
// Serves: one store of a tenant (every v2 sync request), and the tenant's store list.
storeSchema.index({ portalId: 1, appId: 1, storeId: 1 }, { unique: true });

export const storeModel = (connection: Connection) => connection.model('Store', storeSchema);
