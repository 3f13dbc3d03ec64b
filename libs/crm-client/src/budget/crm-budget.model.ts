import { Schema, type Connection, type mongo } from 'mongoose';
import type { CrmBudgetState } from '@ecomm-sync/domain';

/** One CRM account's request budget (domain CrmBudgetState), changed only by compare-and-set on `version`. */
export type CrmBudgetDoc = CrmBudgetState & {
  _id: string;
  version: number;
  /** The account's time zone and its window's margin, as its last writer counted them (older documents: none). */
  timeZone?: string;
  marginMs?: number;
};

const slotCount = new Schema({ at: { type: Number, required: true }, n: { type: Number, required: true } }, { _id: false });

const crmBudgetSchema = new Schema(
  {
    /** The CRM account's key (e.g. base URL and account id): one budget per account, whatever reaches it. */
    _id: { type: String, required: true },
    version: { type: Number, required: true },
    grants: { type: [slotCount], default: [] },
    searchGrants: { type: [slotCount], default: [] },
    day: { type: String, default: null },
    usedToday: { type: Number, default: 0 },
    blockedUntil: { type: Number, default: null },
    searchBlockedUntil: { type: Number, default: null },
    pausedUntil: { type: Number, default: null },
    pauseReason: { type: String, default: null },
    crmMax: { type: Number, default: null },
    correctedAt: { type: Number, default: null },
    /** When the next permit is due at the account's even pace (domain pacedRoom). */
    paceAt: { type: Number, default: null },
    /** The account's time zone (its daily cap resets at its midnight) and its window's margin, as its last writer counted them. */
    timeZone: { type: String },
    marginMs: { type: Number },
  },
  { collection: 'crm_budgets', versionKey: false },
);
// The _id serves reading an account's budget (`{_id}`), and the insert of a new one (unique).
// Serves: the compare-and-set of a budget (`{_id, version}`): servers that use an index only when it
// covers the whole filter need this one (decision 15).
crmBudgetSchema.index({ _id: 1, version: 1 }, { unique: true });

export const crmBudgetModel = (connection: Connection) => connection.models.CrmBudget ?? connection.model('CrmBudget', crmBudgetSchema);

export const crmBudgetCollection = (model: { collection: unknown }) => model.collection as mongo.Collection<CrmBudgetDoc>;

/** The claim of one version of a budget: `_id` is `{account}#{version}`; its insert decides which writer makes that version. */
export interface BudgetVersionClaim {
  _id: string;
  account: string;
  version: number;
  /** Which claim this is: a replica that takes over a dead writer's claim removes that one only (absent on claims made before 2026-12-04). */
  token?: string;
}

const budgetVersionSchema = new Schema(
  { _id: { type: String, required: true }, account: { type: String, required: true }, version: { type: Number, required: true }, token: { type: String } },
  { collection: 'crm_budget_versions', versionKey: false },
);
// Serves: forgetting an account's old claims (`{account, version: {$lt}}`).
budgetVersionSchema.index({ account: 1, version: 1 });

export const budgetVersionModel = (connection: Connection) => connection.models.CrmBudgetVersion ?? connection.model('CrmBudgetVersion', budgetVersionSchema);
