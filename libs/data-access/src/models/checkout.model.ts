import { Schema, type Connection } from 'mongoose';

/** A deal the applier last wrote in `checkout_pending`, and since when: what the abandoned-checkout sweep looks at. */
const pendingCheckoutSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, required: true },
    externalObjectId: { type: String, required: true },
    crmId: { type: Number, required: true },
    pendingSince: { type: Number, required: true },
  },
  { collection: 'pending_checkouts', versionKey: false },
);
// Serves: tracking one deal (every applied deal batch).
pendingCheckoutSchema.index({ portalId: 1, appId: 1, storeId: 1, externalObjectId: 1 }, { unique: true });
// Serves: the sweep's due deals, oldest first.
pendingCheckoutSchema.index({ pendingSince: 1 });

export const pendingCheckoutModel = (connection: Connection) => connection.model('PendingCheckout', pendingCheckoutSchema);

/** Named leases: one holder at a time, until it expires (work that exactly one replica must run). */
const leaseSchema = new Schema(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    until: { type: Number, required: true },
  },
  { collection: 'leases', versionKey: false },
);

export const leaseModel = (connection: Connection) => connection.model('Lease', leaseSchema);
