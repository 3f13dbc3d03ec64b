import { Schema, type Connection } from 'mongoose';

/** One bulk import of a tenant's store, identified by `importStartedAt` (SPEC.md "Import (v1, application mode)"). */
const importSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    appId: { type: String, required: true },
    storeId: { type: String, required: true },
    importStartedAt: { type: Number, required: true },
    version: { type: String, enum: ['v1', 'v2'], required: true },
    status: { type: String, enum: ['initialized', 'receiving', 'complete', 'failed'], required: true },
    webhookUri: { type: String, required: true },
    /** Per requested object type: its settingsId, the expected count from the webhook answer, the items of each page received, and its end. */
    types: { type: Schema.Types.Mixed, required: true },
    failureReason: { type: String, default: null },
    completedAt: { type: Number, default: null },
    /** Release to the mapper: the last page released (resume point), and when it finished. */
    releasedThrough: { type: String, default: null },
    releasedAt: { type: Number, default: null },
    releaseProgressAt: { type: Number, default: null },
    /** The releaser whose claim the release is (decision 57): a taken-over releaser's steps change nothing. */
    releaseOwner: { type: String, default: null },
    webhookRequestedAt: { type: Number, default: null },
    failedAt: { type: Number, default: null },
    /** A webhook problem after pages arrived (the import went on): `{reason, at}`. */
    webhookProblem: { type: Schema.Types.Mixed, default: null },
    /** The release's last failure in a row, `{reason, at, tries}`, until a page is released. */
    releaseProblem: { type: Schema.Types.Mixed, default: null },
    createdAt: { type: Number, required: true },
    /** Compare-and-set revision (decision 49): every write names the one it read and bumps it. */
    rev: { type: Number, default: 0 },
  },
  { collection: 'imports', versionKey: false, minimize: false },
);
// Serves: every import request (pages, ends, state), and refuses a second import at the same instant.
importSchema.index({ portalId: 1, appId: 1, storeId: 1, importStartedAt: 1 }, { unique: true });
// Serves: the console's list of a tenant's imports (an application's, or the portal's direct ones), newest first.
importSchema.index({ portalId: 1, appId: 1, importStartedAt: -1 });
// Serves: the console's list of every import of a portal (a portal credential, no owner picked), newest first.
importSchema.index({ portalId: 1, importStartedAt: -1 });
// Serves: every import-coordinator replica's check for complete imports left unreleased (every 30 s), across portals.
importSchema.index({ status: 1, releasedAt: 1, completedAt: 1 });

export const importModel = (connection: Connection) => connection.model('Import', importSchema);

const importPageSchema = new Schema(
  {
    importId: { type: String, required: true },
    objectType: { type: String, required: true },
    pageNumber: { type: Number, required: true },
    messages: { type: [Schema.Types.Mixed], required: true },
  },
  { collection: 'import_pages', versionKey: false, minimize: false },
);
// Serves: replacing or reading one page, and releasing in order.
importPageSchema.index({ importId: 1, objectType: 1, pageNumber: 1 }, { unique: true });

export const importPageModel = (connection: Connection) => connection.model('ImportPage', importPageSchema);

/** Every outbound webhook attempt, kept for the import's state and for operators. */
const webhookAttemptSchema = new Schema(
  {
    requestId: { type: String, required: true },
    attempt: { type: Number, required: true },
    at: { type: Number, required: true },
    url: { type: String, required: true },
    status: { type: Number, default: null },
    error: { type: String, default: null },
    durationMs: { type: Number, required: true },
  },
  { collection: 'webhook_attempts', versionKey: false },
);
// Serves: the attempts of one request, in order.
webhookAttemptSchema.index({ requestId: 1, attempt: 1 });

export const webhookAttemptModel = (connection: Connection) => connection.model('WebhookAttempt', webhookAttemptSchema);
