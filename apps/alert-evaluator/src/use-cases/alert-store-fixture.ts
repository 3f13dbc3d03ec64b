import type { Tenant } from '@ecomm-sync/contracts';
import { alertNoticeId, type AlertDestination, type AlertNotice, type AlertOutbox, type AlertRule, type NewAlertNotice } from '@ecomm-sync/data-access';
import { INITIAL_ALERT_STATE, type AlertCondition, type AlertCounters, type AlertState } from '@ecomm-sync/domain';
import { recordingLogger } from '@ecomm-sync/testing';
import type { EvaluateAlertsPorts } from './evaluate-alerts.use-case';
import type { SendNoticePorts } from './send-notice.use-case';

/**
 * In-memory rules, destinations and notices with the MongoDB repositories' compare-and-set
 * semantics (claim on nextDueAt, state on stateRev, notices by natural id and taken once), shared by
 * the replicas a test makes, for the evaluator's and the sender's unit tests.
 */
export class AlertStoreFixture {
  readonly rules = new Map<string, AlertRule>();
  readonly destinations: AlertDestination[] = [];
  readonly notices = new Map<string, AlertNotice>();
  readonly queued: string[] = [];
  counters: AlertCounters = {
    now: 0,
    openErrors: {},
    processedLastHour: 0,
    oldestUnappliedAt: null,
    crmRefusals: 0,
    crmWait: null,
    failedImports: 0,
    failedWebhooks: 0,
  };
  now = 1_700_000_000_000;
  /** Fails the next state write once (a replica that stops after the claim). */
  failNextEnqueue = false;

  addRule(condition: AlertCondition, over: Partial<AlertRule> = {}): AlertRule {
    const rule: AlertRule = {
      id: `rule-${this.rules.size + 1}`,
      portalId: 7,
      appId: null,
      storeId: null,
      name: 'Invalid e-mails',
      enabled: true,
      defaultKey: null,
      condition,
      state: INITIAL_ALERT_STATE,
      stateRev: 0,
      nextDueAt: 0,
      lastEvaluatedAt: null,
      outbox: null,
      createdAt: 1,
      ...over,
    };
    this.rules.set(rule.id, rule);
    return rule;
  }

  addDestination(kind: AlertDestination['kind'], target: string): AlertDestination {
    const destination: AlertDestination = {
      id: `dest-${this.destinations.length + 1}`,
      portalId: 7,
      appId: null,
      kind,
      target,
      label: '',
      sealedSecret: null,
      createdAt: 1,
    };
    this.destinations.push(destination);
    return destination;
  }

  evaluatorPorts(): EvaluateAlertsPorts {
    const rules = this.rules;
    return {
      rules: {
        due: async (now, limit) =>
          [...rules.values()]
            .filter((rule) => rule.enabled && rule.nextDueAt <= now)
            .slice(0, limit)
            .map((rule) => ({ ...rule })),
        claim: async (seen, nextDueAt) => {
          const rule = rules.get(seen.id);
          if (!rule || !rule.enabled || rule.nextDueAt !== seen.nextDueAt) return false;
          rules.set(rule.id, { ...rule, nextDueAt });
          return true;
        },
        writeState: async (seen, state: AlertState, outbox: AlertOutbox | null, now) => {
          const rule = rules.get(seen.id);
          if (!rule || rule.stateRev !== seen.stateRev) return false;
          rules.set(rule.id, { ...rule, state, stateRev: rule.stateRev + 1, lastEvaluatedAt: now, outbox: outbox ?? rule.outbox });
          return true;
        },
        owing: async (before, limit) => [...rules.values()].filter((rule) => rule.outbox && rule.outbox.at < before).slice(0, limit),
        clearOutbox: async (ruleId, seq) => {
          const rule = rules.get(ruleId);
          if (rule?.outbox?.notice.seq === seq) rules.set(ruleId, { ...rule, outbox: null });
        },
      },
      destinations: { list: async (tenant: Tenant) => this.destinations.filter((d) => d.portalId === tenant.portalId && d.appId === tenant.appId) },
      notices: {
        store: async (notices: readonly NewAlertNotice[]) =>
          notices.map((notice) => {
            const id = alertNoticeId(notice.ruleId, notice.seq, notice.destinationId);
            if (!this.notices.has(id)) this.notices.set(id, { ...notice, id, status: 'pending', leaseUntil: null, attempts: 0, lastError: null, sentAt: null });
            return id;
          }),
        unqueued: async (before, limit) =>
          [...this.notices.values()]
            .filter((n) => n.status === 'pending' && n.createdAt < before)
            .slice(0, limit)
            .map((n) => n.id),
      },
      counters: { read: async () => ({ ...this.counters, now: this.now }) },
      enqueue: async (noticeId) => {
        if (this.failNextEnqueue) {
          this.failNextEnqueue = false;
          throw new Error('the broker went away');
        }
        this.queued.push(noticeId);
      },
      clock: () => this.now,
      logger: recordingLogger().logger,
    };
  }

  senderPorts(channels: SendNoticePorts['channels']): SendNoticePorts {
    const notices = this.notices;
    return {
      notices: {
        take: async (id, now, leaseUntil) => {
          const notice = notices.get(id);
          const free = notice && (notice.status === 'pending' || notice.status === 'failed' || (notice.status === 'sending' && notice.leaseUntil! < now));
          if (!free) return null;
          const taken = { ...notice, status: 'sending' as const, leaseUntil };
          notices.set(id, taken);
          return taken;
        },
        recordAttempt: async (id, error) => {
          const notice = notices.get(id)!;
          notices.set(id, { ...notice, attempts: notice.attempts + 1, lastError: error });
        },
        finish: async (id, outcome) => {
          const notice = notices.get(id)!;
          notices.set(
            id,
            outcome.sent
              ? { ...notice, status: 'sent', sentAt: outcome.at, leaseUntil: null }
              : { ...notice, status: 'failed', lastError: outcome.error, leaseUntil: null },
          );
        },
      },
      destinations: { find: async (id) => this.destinations.find((d) => d.id === id) ?? null },
      channels,
      clock: () => this.now,
      logger: recordingLogger().logger,
      sleep: async () => undefined,
    };
  }
}
