import { Schema, type Connection } from 'mongoose';

/**
 * Alert rules of a tenant (issue 29, decision 0053): the condition, the state the evaluator keeps
 * (alert-machine), the slot it claims before evaluating, and the outbox of the notice its last
 * change of state owes.
 */
const alertRuleSchema = new Schema(
  {
    /** A random id; `<portal>:<app or ->:<key>` for the rules made at install (made once, whatever the replica). */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    storeId: { type: String, default: null },
    name: { type: String, required: true },
    enabled: { type: Boolean, required: true },
    defaultKey: { type: String, default: null },
    condition: { type: Schema.Types.Mixed, required: true },
    state: { type: Schema.Types.Mixed, required: true },
    /** Compare-and-set revision of `state`: the evaluator writes only over the state it read. */
    stateRev: { type: Number, required: true, default: 0 },
    /** When the rule is due next: a replica claims an evaluation by moving it (compare and set). */
    nextDueAt: { type: Number, required: true, default: 0 },
    lastEvaluatedAt: { type: Number, default: null },
    /** The notice the last change of state owes, until its notices are stored and queued. */
    outbox: { type: Schema.Types.Mixed },
    createdAt: { type: Number, required: true },
  },
  { collection: 'alert_rules', versionKey: false, minimize: false },
);
// Serves: a tenant's rules in the console, oldest first.
alertRuleSchema.index({ portalId: 1, appId: 1, createdAt: 1 });
// Serves: the evaluator's due rules (enabled, nextDueAt <= now).
alertRuleSchema.index({ enabled: 1, nextDueAt: 1 });
// Serves: rules whose notices are owed (a replica stopped between the state write and the queueing).
alertRuleSchema.index({ 'outbox.at': 1 }, { sparse: true });

export const alertRuleModel = (connection: Connection) => connection.model('AlertRule', alertRuleSchema);

/**
 * Where a tenant's notices go. A webhook's or Slack's URL and a webhook's signing secret are sealed
 * (SecretBox): a Slack incoming webhook's URL is its credential, and any URL may carry a token.
 */
const alertDestinationSchema = new Schema(
  {
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    kind: { type: String, enum: ['webhook', 'slack', 'email'], required: true },
    /** The e-mail address; a URL sealed (sealedFor.alertDestinationUrl), or whole when stored before 2026-12-08. */
    target: { type: String, required: true },
    /** How the target reads (shownDestination), kept beside a sealed URL; null when stored before. */
    shownTarget: { type: String, default: null },
    label: { type: String, default: '' },
    sealedSecret: { type: String, default: null },
    createdAt: { type: Number, required: true },
  },
  { collection: 'alert_destinations', versionKey: false },
);
// Serves: a tenant's destinations (the console, and each notice's fan-out).
alertDestinationSchema.index({ portalId: 1, appId: 1, createdAt: 1 });

export const alertDestinationModel = (connection: Connection) => connection.model('AlertDestination', alertDestinationSchema);

/** One notice to one destination: `_id` is `<rule>:<seq>:<destination>`, so a change of state makes each notice once. */
const alertNoticeSchema = new Schema(
  {
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    appId: { type: String, default: null },
    ruleId: { type: String, required: true },
    ruleName: { type: String, required: true },
    destinationId: { type: String, required: true },
    kind: { type: String, enum: ['firing', 'resolved'], required: true },
    seq: { type: Number, required: true },
    value: { type: Number, required: true },
    summary: { type: String, required: true },
    body: { type: Schema.Types.Mixed, required: true },
    status: { type: String, enum: ['pending', 'sending', 'sent', 'failed'], required: true },
    /** While `sending`: until when the sender holds it (another replica takes it over after). */
    leaseUntil: { type: Number, default: null },
    attempts: { type: Number, default: 0 },
    lastError: { type: String, default: null },
    createdAt: { type: Number, required: true },
    sentAt: { type: Number, default: null },
    /** When the evaluator last queued it again: at most once per evaluation interval. */
    requeuedAt: { type: Number, default: null },
  },
  { collection: 'alert_notices', versionKey: false, minimize: false },
);
// Serves: a tenant's notices in the console, newest first.
alertNoticeSchema.index({ portalId: 1, appId: 1, createdAt: -1 });
// Serves: notices stored but never queued (queued again by the evaluator; `requeuedAt` is read from the matched ones).
alertNoticeSchema.index({ status: 1, createdAt: 1 });

export const alertNoticeModel = (connection: Connection) => connection.model('AlertNotice', alertNoticeSchema);
