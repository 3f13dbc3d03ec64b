import { randomUUID } from 'node:crypto';
import type { Tenant } from '@ecomm-sync/contracts';
import { defaultAlertRules, type AlertOutbox, type AlertRule, type AlertRuleFields, type AlertRuleRepository } from '@ecomm-sync/data-access';
import { newAlertRuleEvaluation, startedOver, type AlertState } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

const owns = (tenant: Tenant, rule: AlertRule) => rule.portalId === tenant.portalId && rule.appId === tenant.appId;
const oldestFirst = (a: AlertRule, b: AlertRule) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);

/**
 * AlertRuleRepository in memory: every console read carries the tenant; the evaluator's claim (on
 * `nextDueAt`) and state write (on `stateRev`) are compare and set, as the real one's.
 */
export class FakeAlertRuleRepository implements PublicOf<AlertRuleRepository> {
  private readonly rules = new Map<string, AlertRule>();

  /** Test setup: stores a rule as it is (anAlertRule makes one). */
  put(rule: AlertRule): AlertRule {
    this.rules.set(rule.id, copy(rule));
    return copy(rule);
  }

  async list(tenant: Tenant): Promise<AlertRule[]> {
    return [...this.rules.values()]
      .filter((rule) => owns(tenant, rule))
      .sort(oldestFirst)
      .map(copy);
  }

  async find(tenant: Tenant, id: string): Promise<AlertRule | null> {
    const rule = this.rules.get(id);
    return rule && owns(tenant, rule) ? copy(rule) : null;
  }

  async create(tenant: Tenant, fields: AlertRuleFields, now: number): Promise<AlertRule> {
    return this.put({
      id: randomUUID(),
      portalId: tenant.portalId,
      appId: tenant.appId,
      ...copy(fields),
      defaultKey: null,
      ...newAlertRuleEvaluation(),
      createdAt: now,
    });
  }

  async replace(tenant: Tenant, id: string, fields: AlertRuleFields): Promise<AlertRule | null> {
    const rule = this.rules.get(id);
    if (!rule || !owns(tenant, rule)) return null;
    return this.put({ ...rule, ...copy(fields), state: startedOver(rule.state), nextDueAt: 0, stateRev: rule.stateRev + 1 });
  }

  async setEnabled(tenant: Tenant, id: string, enabled: boolean): Promise<AlertRule | null> {
    const rule = this.rules.get(id);
    if (!rule || !owns(tenant, rule)) return null;
    return this.put({ ...rule, enabled, state: startedOver(rule.state), nextDueAt: 0, stateRev: rule.stateRev + 1 });
  }

  async remove(tenant: Tenant, id: string): Promise<boolean> {
    const rule = this.rules.get(id);
    return Boolean(rule && owns(tenant, rule) && rule.defaultKey === null && this.rules.delete(id));
  }

  async removeAllOf(tenant: Tenant): Promise<number> {
    const owned = [...this.rules.values()].filter((rule) => owns(tenant, rule));
    for (const rule of owned) this.rules.delete(rule.id);
    return owned.length;
  }

  async ensureDefaults(tenant: Tenant, now: number): Promise<void> {
    for (const rule of defaultAlertRules(tenant, now)) if (!this.rules.has(rule.id)) this.put(rule);
  }

  async due(now: number, limit: number): Promise<AlertRule[]> {
    return [...this.rules.values()]
      .filter((rule) => rule.enabled && rule.nextDueAt <= now)
      .sort((a, b) => a.nextDueAt - b.nextDueAt)
      .slice(0, limit)
      .map(copy);
  }

  async claim(rule: AlertRule, nextDueAt: number): Promise<boolean> {
    const stored = this.rules.get(rule.id);
    if (!stored || !stored.enabled || stored.nextDueAt !== rule.nextDueAt || stored.nextDueAt === nextDueAt) return false;
    stored.nextDueAt = nextDueAt;
    return true;
  }

  async writeState(rule: AlertRule, state: AlertState, outbox: AlertOutbox | null, now: number): Promise<boolean> {
    const stored = this.rules.get(rule.id);
    if (!stored || stored.stateRev !== rule.stateRev) return false;
    this.put({ ...stored, state, stateRev: stored.stateRev + 1, lastEvaluatedAt: now, outbox: outbox ?? stored.outbox });
    return true;
  }

  async owing(before: number, limit: number): Promise<AlertRule[]> {
    return [...this.rules.values()]
      .filter((rule) => rule.outbox !== null && rule.outbox.at < before)
      .slice(0, limit)
      .map(copy);
  }

  async clearOutbox(ruleId: string, seq: number): Promise<void> {
    const stored = this.rules.get(ruleId);
    if (stored?.outbox?.notice.seq === seq) stored.outbox = null;
  }
}
