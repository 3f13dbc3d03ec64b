import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const portalSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    name: { type: String, required: true },
    active: { type: Boolean, required: true, default: true },
    /**
     * Bearer token of the portal's account in the built-in CRM, sealed with SECRETS_KEY (decision
     * 22): an outbound credential, so it cannot be hashed.
     */
    crmTokenSealed: { type: String },
    /** The same token in clear, as documents before decision 22 hold it; sealed and removed on first use or at boot. */
    crmToken: { type: String },
    /** The portal's CRM connection (StoredCrmConnection) with its secrets sealed; absent: the built-in CRM, no limits. */
    crmConnection: { type: Schema.Types.Mixed },
    /** The OAuth access token of a hosted connection, sealed, shared by every replica (StoredOAuthToken). */
    crmOAuthToken: { type: Schema.Types.Mixed },
    /**
     * The ids the CRM gave the portal's ecommerce pipeline and its stages (KeptEcommPipeline: its label
     * can be changed in the CRM, its ids cannot), and the connection they belong to.
     */
    ecommPipeline: { type: Schema.Types.Mixed },
    /** The pipeline's id alone, as documents of before stage ids were kept hold it; replaced at the next install. */
    ecommPipelineId: { type: String },
  },
  { collection: 'portals', timestamps: true, versionKey: false, minimize: false },
);
// Serves: portal by id (every tenant check, admin API).
portalSchema.index({ portalId: 1 }, { unique: true });

export type PortalDocument = InferSchemaType<typeof portalSchema>;
export const portalModel = (connection: Connection) => connection.model('Portal', portalSchema);

const counterSchema = new Schema(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  {
    collection: 'counters',
    versionKey: false,
  },
);
/** Shared by the repositories that number things; registered once per connection. */
export const counterModel = (connection: Connection) => connection.models.Counter ?? connection.model('Counter', counterSchema);
