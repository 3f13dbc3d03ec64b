import type { AlertNoticeBody, Tenant } from '@ecomm-sync/contracts';
import {
  alertNoticeId,
  type AlertCountersRepository,
  type AlertDestinationRepository,
  type AlertNoticeRepository,
  type AlertOutbox,
  type AlertRule,
  type AlertRuleRepository,
  type ObjectStateRepository,
} from '@ecomm-sync/data-access';
import { alertConsolePath, alertSlot, alertTransition, LAG_NOT_KNOWN, measureAlert, type AlertCounters } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';

/** The ports of an evaluation: the stored rules, destinations and notices, the counters, and the notice queue. */
export interface EvaluateAlertsPorts {
  rules: Pick<AlertRuleRepository, 'due' | 'claim' | 'writeState' | 'owing' | 'clearOutbox'>;
  destinations: Pick<AlertDestinationRepository, 'list'>;
  notices: Pick<AlertNoticeRepository, 'store' | 'requeue'>;
  counters: Pick<AlertCountersRepository, 'read'>;
  /**
   * The sync lag: when the tenant's (or store's) oldest object not applied yet was accepted. The
   * read clears the markers of objects processed since (a bounded sweep): read only for lag rules.
   */
  unapplied: Pick<ObjectStateRepository, 'oldestUnapplied'>;
  /** Queues one stored notice for its sender (a persistent message, confirmed by the broker). */
  enqueue: (noticeId: string) => Promise<void>;
  /**
   * Whether the portal's CRM still takes its token: one cheap read through the portal's CRM
   * connection and its account's budget, for the CRM connection rules ('refused': 401 or 403).
   * Absent: only the writes the CRM refused count.
   */
  probeCrm?: (portalId: number) => Promise<'refused' | 'ok' | 'unknown'>;
  clock: () => number;
  logger: Logger;
}

export interface EvaluateAlertsOptions {
  intervalMs: number;
  batchSize: number;
  /** The console's base URL ('' : links are paths). */
  consoleUrl: string;
}

export interface EvaluationReport {
  evaluated: number;
  notices: number;
}

/**
 * One tick of the alert evaluator (decision 0053). Every replica runs it every interval; a rule is
 * evaluated by the one replica whose claim on its slot wins (compare and set on `nextDueAt`), so
 * each rule is evaluated at most once per interval however many replicas run. Its new state and the
 * notice it owes are written together (compare and set on the state it read); the notices are then
 * stored, one per destination with a natural id, and queued. A replica that stops in between leaves
 * the outbox, which the next tick (of any replica) finishes: nothing is lost and nothing is stored twice.
 */
export class EvaluateAlertsUseCase {
  constructor(
    private readonly ports: EvaluateAlertsPorts,
    private readonly options: EvaluateAlertsOptions,
  ) {}

  async run(): Promise<EvaluationReport> {
    const { rules, notices, clock } = this.ports;
    const now = clock();
    let sent = 0;
    // Outboxes a replica left (it stopped after the state write): older than half an interval, so that
    // the replica still working on a fresh one is not raced.
    for (const rule of await rules.owing(now - this.options.intervalMs / 2, this.options.batchSize)) sent += await this.settle(rule, rule.outbox!);
    const due = await rules.due(now, this.options.batchSize);
    const counters = new Map<string, Promise<AlertCounters | null>>();
    const probes = new Map<number, Promise<'refused' | 'ok' | 'unknown'>>();
    const slotEnd = (alertSlot(now, this.options.intervalMs) + 1) * this.options.intervalMs;
    let evaluated = 0;
    for (const rule of due) {
      if (!(await rules.claim(rule, slotEnd))) continue; // another replica evaluates it in this slot
      evaluated++;
      // A notice still owed (a replica stopped, and the rule was edited and so due at once) goes out
      // first: the state written next carries the next notice, in place of this one.
      if (rule.outbox) sent += await this.settle(rule, rule.outbox);
      const key = `${rule.portalId}|${rule.appId}|${rule.storeId}|${rule.condition.kind === 'open-errors' && rule.condition.measure === 'share'}|${rule.condition.kind === 'sync-lag'}`;
      if (!counters.has(key)) counters.set(key, this.read(rule, now));
      let read = await counters.get(key)!;
      if (read === null) continue; // the lag is not known yet (a sweep to finish): the rule keeps its state until a later slot
      if (rule.condition.kind === 'crm-connection' && this.ports.probeCrm && read.crmWait === null) {
        // One probe per portal and tick, whatever the number of its tenants' rules.
        if (!probes.has(rule.portalId))
          probes.set(
            rule.portalId,
            this.ports.probeCrm(rule.portalId).catch(() => 'unknown' as const),
          );
        if ((await probes.get(rule.portalId)) === 'refused') read = { ...read, crmRefusals: read.crmRefusals + 1 };
      }
      const measure = measureAlert(rule.condition, read);
      const { next, notice } = alertTransition(rule.state, { kind: 'evaluated', measure, now });
      const outbox: AlertOutbox | null = notice ? { notice, at: now } : null;
      if (!(await rules.writeState(rule, next, outbox, now))) continue; // edited meanwhile: it starts over
      if (outbox) sent += await this.settle(rule, outbox);
    }
    // Notices stored but never queued (the queueing failed): queued again; the sender sends each once.
    // Each is stamped as it is queued again, so a backlog the sender has not reached yet is not queued again on every tick.
    const { intervalMs, batchSize } = this.options;
    // A notice a sender took is queued again only two ticks after its lease ended: that sender stopped.
    const window = { storedBefore: now - 2 * intervalMs, requeuedBefore: now - intervalMs, leaseEndedBefore: now - 2 * intervalMs };
    for (const id of await notices.requeue(now, window, batchSize)) await this.ports.enqueue(id);
    return { evaluated, notices: sent };
  }

  /** The tenant's counters; the share's denominator and the sync lag only for the rules that measure them; null: the lag is not known yet. */
  private async read(rule: AlertRule, now: number): Promise<AlertCounters | null> {
    const tenant: Tenant = { portalId: rule.portalId, appId: rule.appId };
    const share = rule.condition.kind === 'open-errors' && rule.condition.measure === 'share';
    const [counters, oldestUnappliedAt] = await Promise.all([
      this.ports.counters.read(tenant, rule.storeId, now, { processedLastHour: share }),
      rule.condition.kind === 'sync-lag' ? this.ports.unapplied.oldestUnapplied(tenant, rule.storeId) : null,
    ]);
    return oldestUnappliedAt === LAG_NOT_KNOWN ? null : { ...counters, oldestUnappliedAt };
  }

  /** Stores the outbox's notices (one per destination of the tenant), queues them, and empties the outbox. */
  private async settle(rule: AlertRule, { notice, at }: AlertOutbox): Promise<number> {
    const { destinations, notices, rules, enqueue, logger } = this.ports;
    const tenant: Tenant = { portalId: rule.portalId, appId: rule.appId };
    const to = await destinations.list(tenant);
    const body = (noticeId: string): AlertNoticeBody => ({
      noticeId,
      state: notice.kind,
      rule: { id: rule.id, name: rule.name, kind: rule.condition.kind },
      portalId: rule.portalId,
      appId: rule.appId,
      storeId: rule.storeId,
      value: notice.value,
      summary: notice.summary,
      at,
      link: `${this.options.consoleUrl}${alertConsolePath(rule, rule.condition)}`,
    });
    const ids = await notices.store(
      to.map((destination) => ({
        portalId: rule.portalId,
        appId: rule.appId,
        ruleId: rule.id,
        ruleName: rule.name,
        destinationId: destination.id,
        kind: notice.kind,
        seq: notice.seq,
        value: notice.value,
        summary: notice.summary,
        body: body(alertNoticeId(rule.id, notice.seq, destination.id)),
        createdAt: at,
      })),
    );
    for (const id of ids) await enqueue(id);
    await rules.clearOutbox(rule.id, notice.seq);
    logger.info('alert changed state', { ruleId: rule.id, portalId: rule.portalId, state: notice.kind, seq: notice.seq, destinations: ids.length });
    return ids.length;
  }
}
