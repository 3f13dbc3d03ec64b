import { Schema, type Connection } from 'mongoose';

/** How long the CRM request log keeps an exchange (decision 0051). */
export const CRM_EXCHANGE_RETENTION_SECONDS = 7 * 24 * 60 * 60;

const messageSchema = new Schema(
  {
    headers: { type: Schema.Types.Mixed, default: {} },
    body: { type: String, default: null },
    bytes: { type: Number, default: 0 },
    truncated: { type: Boolean, default: false },
  },
  { _id: false },
);

/** One request to a CRM and its answer, redacted and bounded (the CRM request log, decision 0051). */
const crmExchangeSchema = new Schema(
  {
    at: { type: Date, required: true },
    portalId: { type: Number, default: null },
    /** The tenant whose work sent it (an application's id; null: the portal's own); absent: none said. */
    appId: { type: String },
    account: { type: String, required: true },
    baseUrl: { type: String, required: true },
    method: { type: String, required: true },
    path: { type: String, required: true },
    attempt: { type: Number, required: true },
    /** `TYPE:key:<sync key>` and `TYPE:crm:<CRM id>` of the objects it carried. */
    objects: { type: [String], default: [] },
    status: { type: Number, default: null },
    failed: { type: Boolean, required: true },
    durationMs: { type: Number, required: true },
    correlationId: { type: String, default: null },
    error: { type: String, default: null },
    request: { type: messageSchema, required: true },
    answer: { type: messageSchema, required: true },
  },
  { collection: 'crm_exchanges', versionKey: false },
);
// Serves: retention; the server removes an exchange 7 days after it was sent.
crmExchangeSchema.index({ at: 1 }, { expireAfterSeconds: CRM_EXCHANGE_RETENTION_SECONDS });
// Serves: an object's exchanges, newest first (the object inspector): the portal and one of the object's keys.
crmExchangeSchema.index({ portalId: 1, objects: 1, at: -1 });
// Serves: an account's recent failed exchanges (the operations page).
crmExchangeSchema.index({ account: 1, failed: 1, at: -1 });
// Serves: the recent failed exchanges of every account (the operations page without an account).
crmExchangeSchema.index({ failed: 1, at: -1 });

export const crmExchangeModel = (connection: Connection) => connection.model('CrmExchange', crmExchangeSchema);
