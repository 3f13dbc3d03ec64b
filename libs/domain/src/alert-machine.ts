/**
 * Alert rules (issue 29): what each kind of rule measures from a tenant's counters, whether that
 * breaches the rule, and the rule's state machine, ok → firing → resolved → firing …, which says
 * which evaluation sends a notice. One notice per change of state: a rule that stays firing (or
 * stays clear) sends nothing, however often it is evaluated. Use cases and repositories hold no
 * part of this rule.
 */
import type { CrmWaitReason } from './crm-wait';

/** The error types a rule may name (SPEC.md "Errors"); null: any type. */
export type AlertErrorType = string | null;

export type AlertCondition =
  /** Open errors of one type (or any) above a count, or above a share of the objects processed in the last hour. */
  | { kind: 'open-errors'; errorType: AlertErrorType; measure: 'count' | 'share'; threshold: number }
  /** The oldest object accepted but not applied yet (queued, parked, or waiting for an association) was accepted more than `minutes` ago. */
  | { kind: 'sync-lag'; minutes: number }
  /** The CRM refuses the token (401/403), the daily cap is reached, or it has not answered for `unreachableMinutes`. */
  | { kind: 'crm-connection'; unreachableMinutes: number }
  /** An import failed in the last hour. */
  | { kind: 'import-failed' }
  /** An import's initialization webhook failed for good in the last hour. */
  | { kind: 'webhook-failed' };

export type AlertKind = AlertCondition['kind'];

/** What the evaluator read for one tenant (and store), once per evaluation: counts it reads cheaply. */
export interface AlertCounters {
  now: number;
  /** Open errors by type. */
  openErrors: Record<string, number>;
  /** Objects processed in the last hour (the share's denominator). */
  processedLastHour: number;
  /**
   * Of the objects processed in the last hour, those with an open error (the share's numerator:
   * the same population as its denominator), of any type and by type; an object with two types
   * counts once in `any`. Read only for share rules.
   */
  erringLastHour: { any: number; byType: Record<string, number> };
  /** When the oldest object accepted but not applied yet was accepted; null: none waits. A failed object was processed: it does not wait. */
  oldestUnappliedAt: number | null;
  /** The portal's CRM: open errors whose write the CRM refused with 401 or 403 (token revoked or refused). */
  crmRefusals: number;
  /** The portal's CRM wait, if its work waits now. */
  crmWait: { reason: CrmWaitReason; since: number } | null;
  /** Imports that failed in the last hour, and of those, the ones whose webhook failed for good. */
  failedImports: number;
  failedWebhooks: number;
}

/** What a rule measured: whether it is breached, the figure a notice reports, and why in words. */
export interface AlertMeasure {
  breached: boolean;
  value: number;
  summary: string;
}

const MINUTE = 60_000;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Measures a rule's condition on the counters read for its tenant. */
export function measureAlert(condition: AlertCondition, counters: AlertCounters): AlertMeasure {
  switch (condition.kind) {
    case 'open-errors': {
      const { errorType, measure, threshold } = condition;
      const open = errorType === null ? Object.values(counters.openErrors).reduce((sum, n) => sum + n, 0) : (counters.openErrors[errorType] ?? 0);
      const what = `open ${errorType ?? ''}${errorType ? ' ' : ''}error`;
      if (measure === 'count') return { breached: open > threshold, value: open, summary: `${plural(open, what)} (threshold ${threshold})` };
      // Objects processed in the last hour that have an open error, of those processed: a share of
      // nothing processed is no share. The two are read one after the other: an object processed
      // in between may be counted erring and not processed, hence the cap.
      const { processedLastHour, erringLastHour } = counters;
      const erring = Math.min(processedLastHour, errorType === null ? erringLastHour.any : (erringLastHour.byType[errorType] ?? 0));
      const share = processedLastHour === 0 ? 0 : Math.round((erring / processedLastHour) * 1000) / 10;
      return {
        breached: share > threshold,
        value: erring,
        summary: `${erring} of ${plural(processedLastHour, 'object')} processed in the last hour ${erring === 1 ? 'has' : 'have'} an ${what} (${share}%, threshold ${threshold}%)`,
      };
    }
    case 'sync-lag': {
      const lag = counters.oldestUnappliedAt === null ? 0 : Math.max(0, Math.floor((counters.now - counters.oldestUnappliedAt) / MINUTE));
      return {
        breached: lag > condition.minutes,
        value: lag,
        summary: `the oldest object accepted and not applied yet waits for ${plural(lag, 'minute')} (threshold ${condition.minutes})`,
      };
    }
    case 'crm-connection':
      return crmConnection(condition.unreachableMinutes, counters);
    case 'import-failed':
      return {
        breached: counters.failedImports > 0,
        value: counters.failedImports,
        summary: `${plural(counters.failedImports, 'import')} failed in the last hour`,
      };
    case 'webhook-failed':
      return {
        breached: counters.failedWebhooks > 0,
        value: counters.failedWebhooks,
        summary: `${plural(counters.failedWebhooks, 'import webhook')} failed for good in the last hour`,
      };
  }
}

function crmConnection(unreachableMinutes: number, { crmRefusals, crmWait, now }: AlertCounters): AlertMeasure {
  if (crmRefusals > 0)
    return { breached: true, value: crmRefusals, summary: `the CRM refused the connection's token (401/403) for ${plural(crmRefusals, 'object')}` };
  if (crmWait?.reason === 'unauthorized')
    return { breached: true, value: 1, summary: "the CRM refuses the connection's token (401/403); the changes wait until it is connected again" };
  if (crmWait?.reason === 'daily-cap') return { breached: true, value: 1, summary: "the CRM account's daily request cap is reached" };
  if (crmWait?.reason === 'unreachable') {
    const minutes = Math.floor((now - crmWait.since) / MINUTE);
    if (minutes >= unreachableMinutes) return { breached: true, value: minutes, summary: `the CRM has not answered for ${plural(minutes, 'minute')}` };
  }
  return { breached: false, value: 0, summary: 'the CRM connection works' };
}

/** A rule's state as stored: `seq` counts its changes of state (the notices' natural key). */
export interface AlertState {
  status: 'ok' | 'firing' | 'resolved';
  seq: number;
  /** When the current status began; null for a rule never evaluated. */
  since: number | null;
  /** The figure of the last evaluation. */
  value: number;
  summary: string;
}

export const INITIAL_ALERT_STATE: AlertState = { status: 'ok', seq: 0, since: null, value: 0, summary: 'not evaluated yet' };

/**
 * A rule started over (disabled, or its condition changed): not evaluated yet, its `seq` kept. The
 * notices' ids are made of `seq`, so the next change of state after an edit is a new notice, never
 * one sent before the edit.
 */
export const startedOver = (state: AlertState): AlertState => ({ ...INITIAL_ALERT_STATE, seq: state.seq });

export type AlertEvent =
  /** The evaluator measured the rule. */
  | { kind: 'evaluated'; measure: AlertMeasure; now: number }
  /** The customer disabled the rule or changed its condition: it starts over without a notice. */
  | { kind: 'reset' };

/** The notice a change of state sends: `seq` is the new state's, so a repeated write sends nothing twice. */
export interface AlertNoticeEffect {
  kind: 'firing' | 'resolved';
  seq: number;
  value: number;
  summary: string;
}

/** `next` is the state itself (the same object) when nothing is to be written. */
export interface AlertTransition {
  next: AlertState;
  notice: AlertNoticeEffect | null;
}

export function alertTransition(state: AlertState, event: AlertEvent): AlertTransition {
  if (event.kind === 'reset') return { next: state.status === 'ok' && state.since === null ? state : startedOver(state), notice: null };
  const { measure, now } = event;
  const firing = state.status === 'firing';
  if (measure.breached === firing) {
    // No change of state: the figure is kept current for the console, without a notice.
    const same = state.value === measure.value && state.summary === measure.summary && state.since !== null;
    return { next: same ? state : { ...state, since: state.since ?? now, value: measure.value, summary: measure.summary }, notice: null };
  }
  const seq = state.seq + 1;
  const status = measure.breached ? 'firing' : 'resolved';
  return {
    next: { status, seq, since: now, value: measure.value, summary: measure.summary },
    notice: { kind: measure.breached ? 'firing' : 'resolved', seq, value: measure.value, summary: measure.summary },
  };
}

/**
 * The evaluation slot a time falls in: a rule is evaluated once per slot, by the replica that
 * claims it first (compare and set on the stored slot).
 */
export const alertSlot = (now: number, intervalMs: number): number => Math.floor(now / intervalMs);

/** The rules every tenant has from install on (a customer adds destinations; they can be edited or disabled). */
export const DEFAULT_ALERT_RULES: readonly { key: string; name: string; condition: AlertCondition }[] = [
  { key: 'default-crm-connection', name: 'CRM connection failing', condition: { kind: 'crm-connection', unreachableMinutes: 15 } },
  { key: 'default-import-failed', name: 'Import failed', condition: { kind: 'import-failed' } },
];

/** Whose rule a notice is about: a portal's own (`appId` null) or an application's in the portal, of one store or all. */
export interface AlertRuleScope {
  portalId: number;
  appId: string | null;
  storeId: string | null;
}

const withQuery = (path: string, entries: Record<string, string | null>): string => {
  const query = new URLSearchParams(Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== null)).toString();
  return query ? `${path}?${query}` : path;
};

/**
 * The console page that shows what a rule is about (a notice links to it): the customer's portal
 * pages for a portal's own rule, the integrator's application pages for an application's (the
 * customer's are not theirs to open); errors narrowed to the rule's portal (an integrator's), type
 * and store, whose owner the store id needs (a portal's own store and an application's may share
 * an id). Integrators have no stores page: their import rules open their alerts in the portal; the
 * overview of their lag rules shows every portal.
 */
export function alertConsolePath(rule: AlertRuleScope, condition: AlertCondition): string {
  const base = rule.appId === null ? `/console/portals/${rule.portalId}` : `/console/apps/${encodeURIComponent(rule.appId)}`;
  const alerts = rule.appId === null ? `${base}/alerts` : withQuery(`${base}/alerts`, { portalId: String(rule.portalId) });
  switch (condition.kind) {
    case 'open-errors':
      return withQuery(`${base}/errors`, {
        // An integrator's errors page shows every portal of the application unless one is picked.
        portalId: rule.appId === null ? null : String(rule.portalId),
        errorType: condition.errorType,
        ...(rule.storeId === null ? {} : { owner: rule.appId ?? 'direct', storeId: rule.storeId }),
      });
    case 'sync-lag':
      return `${base}/overview`;
    case 'crm-connection':
      return alerts;
    case 'import-failed':
    case 'webhook-failed':
      return rule.appId === null ? `${base}/stores` : alerts;
  }
}
