import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const portalSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    name: { type: String, required: true },
    active: { type: Boolean, required: true, default: true },
    /** Bearer token of the portal's account in the CRM; an outbound credential, so it cannot be hashed. */
    crmToken: { type: String, required: true },
  },
  { collection: 'portals', timestamps: true, versionKey: false },
);
// Serves: portal by id (every tenant check, admin API).
portalSchema.index({ portalId: 1 }, { unique: true });

export type PortalDocument = InferSchemaType<typeof portalSchema>;
export const portalModel = (connection: Connection) => connection.model('Portal', portalSchema);

const counterSchema = new Schema({ _id: { type: String, required: true }, seq: { type: Number, required: true } }, {
  collection: 'counters',
  versionKey: false,
});
/** Shared by the repositories that number things; registered once per connection. */
export const counterModel = (connection: Connection) => connection.models.Counter ?? connection.model('Counter', counterSchema);
