import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import {
  DEFAULT_ALERT_RULES,
  INITIAL_ALERT_STATE,
  newAlertRuleEvaluation,
  type AlertCondition,
  type AlertNoticeEffect,
  type AlertState,
} from '@ecomm-sync/domain';
import { driverCollection } from '../driver-collection';
import { alertRuleModel } from '../models/alert.model';

/** The notice a change of state owes, kept with the state until its notices are stored and queued. */
export interface AlertOutbox {
  notice: AlertNoticeEffect;
  at: number;
}

export interface AlertRule {
  id: string;
  portalId: number;
  appId: string | null;
  storeId: string | null;
  name: string;
  enabled: boolean;
  defaultKey: string | null;
  condition: AlertCondition;
  state: AlertState;
  stateRev: number;
  nextDueAt: number;
  lastEvaluatedAt: number | null;
  outbox: AlertOutbox | null;
  createdAt: number;
}

export interface AlertRuleFields {
  name: string;
  storeId: string | null;
  enabled: boolean;
  condition: AlertCondition;
}

// A rule owes no notice with its outbox null (a new rule) or unset (cleared): `'outbox.at'` is absent either way.
type AlertRuleDoc = Omit<AlertRule, 'id' | 'outbox'> & { _id: string; outbox?: AlertOutbox | null };

const toRule = ({ _id, outbox, ...doc }: AlertRuleDoc): AlertRule => ({
  id: _id,
  ...doc,
  appId: doc.appId ?? null,
  storeId: doc.storeId ?? null,
  outbox: outbox ?? null,
});
const owned = (tenant: Tenant) => ({ portalId: tenant.portalId, appId: tenant.appId });
/** The state a replaced rule starts over with, field by field: its `seq` is left as it is (startedOver). */
const STARTED_OVER = Object.fromEntries(
  Object.entries(INITIAL_ALERT_STATE)
    .filter(([field]) => field !== 'seq')
    .map(([field, value]) => [`state.${field}`, value]),
);
export const defaultRuleId = (tenant: Tenant, key: string) => `${tenant.portalId}:${tenant.appId ?? '-'}:${key}`;

/** The rules every tenant has from install on, as new rules (the repository and its fake write these). */
export const defaultAlertRules = (tenant: Tenant, now: number): AlertRule[] =>
  DEFAULT_ALERT_RULES.map(({ key, name, condition }) => ({
    id: defaultRuleId(tenant, key),
    ...owned(tenant),
    storeId: null,
    name,
    enabled: true,
    defaultKey: key,
    condition,
    ...newAlertRuleEvaluation(),
    createdAt: now,
  }));

/** Alert rules: every query of the console carries the tenant; the evaluator's claim and state writes compare and set. */
export class AlertRuleRepository {
  private readonly rules;

  constructor(connection: Connection) {
    this.rules = driverCollection<AlertRuleDoc>(alertRuleModel(connection));
  }

  async list(tenant: Tenant): Promise<AlertRule[]> {
    return (await this.rules.find(owned(tenant)).sort({ createdAt: 1, _id: 1 }).toArray()).map(toRule);
  }

  async find(tenant: Tenant, id: string): Promise<AlertRule | null> {
    const doc = await this.rules.findOne({ _id: id, ...owned(tenant) });
    return doc ? toRule(doc) : null;
  }

  async create(tenant: Tenant, fields: AlertRuleFields, now: number): Promise<AlertRule> {
    const doc: AlertRuleDoc = {
      _id: randomUUID(),
      ...owned(tenant),
      ...fields,
      defaultKey: null,
      ...newAlertRuleEvaluation(),
      createdAt: now,
    };
    await this.rules.insertOne(doc);
    return toRule(doc);
  }

  /**
   * Replaces what the customer sets; the rule starts over (state reset with its `seq` kept, so its
   * next notice is a new one; evaluated at the next tick). A notice still owed for a change of state
   * before the edit is kept and sent: it happened.
   */
  async replace(tenant: Tenant, id: string, fields: AlertRuleFields): Promise<AlertRule | null> {
    const doc = await this.rules.findOneAndUpdate(
      { _id: id, ...owned(tenant) },
      { $set: { ...fields, ...STARTED_OVER, nextDueAt: 0 }, $inc: { stateRev: 1 } },
      { returnDocument: 'after' },
    );
    return doc ? toRule(doc) : null;
  }

  /** Enables or disables a rule, nothing else; it starts over as after an edit (replace). */
  async setEnabled(tenant: Tenant, id: string, enabled: boolean): Promise<AlertRule | null> {
    const doc = await this.rules.findOneAndUpdate(
      { _id: id, ...owned(tenant) },
      { $set: { enabled, ...STARTED_OVER, nextDueAt: 0 }, $inc: { stateRev: 1 } },
      { returnDocument: 'after' },
    );
    return doc ? toRule(doc) : null;
  }

  /** Deletes a rule the customer made; rules made at install are disabled instead. */
  async remove(tenant: Tenant, id: string): Promise<boolean> {
    return (await this.rules.deleteOne({ _id: id, ...owned(tenant), defaultKey: null })).deletedCount === 1;
  }

  /** Deletes every rule of a tenant, the defaults too (the application was removed from the portal); answers how many. */
  async removeAllOf(tenant: Tenant): Promise<number> {
    return (await this.rules.deleteMany(owned(tenant))).deletedCount;
  }

  /** The rules every tenant has from install on; a repeated call (another replica, a reinstall) changes nothing. */
  async ensureDefaults(tenant: Tenant, now: number): Promise<void> {
    await this.rules.bulkWrite(
      defaultAlertRules(tenant, now).map(({ id, ...rule }) => ({
        updateOne: { filter: { _id: id }, update: { $setOnInsert: rule }, upsert: true },
      })),
      { ordered: false },
    );
  }

  /** Enabled rules due by `now`, the longest due first. */
  async due(now: number, limit: number): Promise<AlertRule[]> {
    return (
      await this.rules
        .find({ enabled: true, nextDueAt: { $lte: now } })
        .sort({ nextDueAt: 1 })
        .limit(limit)
        .toArray()
    ).map(toRule);
  }

  /** Claims the rule's evaluation: true for the one replica whose compare and set on `nextDueAt` wins. */
  async claim(rule: AlertRule, nextDueAt: number): Promise<boolean> {
    const result = await this.rules.updateOne({ _id: rule.id, enabled: true, nextDueAt: rule.nextDueAt }, { $set: { nextDueAt } });
    return result.modifiedCount === 1;
  }

  /**
   * Writes the state over the one read (compare and set on `stateRev`), with the notice it owes in
   * the same write: a state change and its notice are stored together or not at all. False when the
   * rule changed meanwhile (edited, or written by another replica).
   */
  async writeState(rule: AlertRule, state: AlertState, outbox: AlertOutbox | null, now: number): Promise<boolean> {
    const result = await this.rules.updateOne(
      { _id: rule.id, stateRev: rule.stateRev },
      { $set: { state, lastEvaluatedAt: now, ...(outbox ? { outbox } : {}) }, $inc: { stateRev: 1 } },
    );
    return result.modifiedCount === 1;
  }

  /** Rules whose change of state before `before` still owes its notices (a replica stopped in between). */
  async owing(before: number, limit: number): Promise<AlertRule[]> {
    return (
      await this.rules
        .find({ 'outbox.at': { $lt: before } })
        .limit(limit)
        .toArray()
    ).map(toRule);
  }

  /** The outbox is done once its notices are stored and queued (only that notice's: a newer one stays). */
  async clearOutbox(ruleId: string, seq: number): Promise<void> {
    await this.rules.updateOne({ _id: ruleId, 'outbox.notice.seq': seq }, { $unset: { outbox: '' } });
  }
}
