import { Schema, type Connection } from 'mongoose';

/**
 * The property names a portal's CRM defines for one object type, as last read from the CRM, shared
 * by every applier replica (SharedPropertyNames). `_id`: `{portalId}:{connection version}:{type}`.
 */
const crmPropertyNamesSchema = new Schema(
  {
    _id: { type: String, required: true },
    names: { type: [String], required: true },
    readAt: { type: Number, required: true },
  },
  { collection: 'crm_property_names', versionKey: false },
);

/** Who reads a key's names from the CRM in one short slot: the first insert of `{key}#{slot}` wins. */
const crmPropertyReadSchema = new Schema(
  {
    _id: { type: String, required: true },
    expireAt: { type: Date, required: true },
  },
  { collection: 'crm_property_reads', versionKey: false },
);
// Serves: claims go away once their slot has passed.
crmPropertyReadSchema.index({ expireAt: 1 }, { expireAfterSeconds: 0 });

export const crmPropertyNamesModel = (connection: Connection) => connection.model('CrmPropertyNames', crmPropertyNamesSchema);
export const crmPropertyReadModel = (connection: Connection) => connection.model('CrmPropertyRead', crmPropertyReadSchema);
