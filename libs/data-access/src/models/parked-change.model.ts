import { Schema, type Connection } from 'mongoose';

/**
 * A change whose CRM write waits because the portal's CRM is rate-limited, capped for the day or
 * away (docs/decisions/0023-waiting-is-not-failing.md): one per object, the newest revision kept,
 * applied when the portal's wait ends.
 */
const parkedChangeSchema = new Schema(
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
    /** Written even when its revision was applied already (a repair or a re-apply asked for it). */
    reapply: { type: Boolean, default: false },
    parkedAt: { type: Number, required: true },
  },
  { collection: 'parked_changes', versionKey: false },
);
// The _id serves one parked change per object (replaced by a newer one), releasing applied ones, and
// compare-and-set writes of kept changes on the revision they read (decision 15, addendum of 2026-11-27, night).
// Serves: resuming a portal, its changes parked longest first.
parkedChangeSchema.index({ portalId: 1, parkedAt: 1 });

export const parkedChangeModel = (connection: Connection) => connection.model('ParkedChange', parkedChangeSchema);
