import type { CrmLimits, CrmRequestKind } from './crm-budget';
import { paceIntervalMs } from './crm-budget-pace';
import { windowLimit, type CrmBudgetState } from './crm-budget-rules';
import { requestWindow, searchWindow, slotStart, type SlotCount } from './crm-budget-window';
import { localDay } from './crm-day';

export interface HandBack {
  /** When the permits were granted (the grant's `grantedAt`). */
  grantedAt: number;
  kind: CrmRequestKind;
  /** Permits granted then and never used: no request went out with them. */
  count: number;
  limits: CrmLimits;
  slotMs: number;
  /** The window's margin the permits were granted with (default: one slot). */
  marginMs?: number;
}

const lessIn = (grants: readonly SlotCount[], at: number, count: number): SlotCount[] =>
  grants.map((grant) => (grant.at === at ? { at, n: Math.max(0, grant.n - count) } : grant));

/**
 * Gives back permits a replica leased and did not use before they ran out (decision 20): they are
 * taken off the slot they were granted in (and the search slot, and the day), so that the window
 * counts only requests that went out. Safe whenever it comes: a slot never counts fewer than the
 * permits used in it, and permits granted before the CRM's count corrected the budget (another app)
 * are not handed back, since that correction counted them as sent. The even pace's due time moves
 * back by their share. Slots the window no longer holds are left as they are. `changed` false:
 * nothing to write.
 */
export function handBackPermits(
  state: CrmBudgetState,
  { grantedAt, kind, count, limits, slotMs, marginMs }: HandBack,
): { state: CrmBudgetState; changed: boolean } {
  // A correction since the grant counted these permits as sent: handing them back would count less
  // than the CRM does.
  if (count <= 0 || ((state.correctedAt ?? null) !== null && state.correctedAt! >= grantedAt)) return { state, changed: false };
  const at = slotStart(grantedAt, requestWindow(slotMs).slotMs);
  if (!state.grants.some((grant) => grant.at === at && grant.n > 0)) return { state, changed: false };
  const searchAt = slotStart(grantedAt, searchWindow(slotMs).slotMs);
  const searched = kind === 'search' && limits.searchPerSecond !== null;
  return {
    state: {
      ...state,
      grants: lessIn(state.grants, at, count),
      searchGrants: searched ? lessIn(state.searchGrants, searchAt, count) : state.searchGrants,
      usedToday: state.day === localDay(grantedAt, limits.timeZone) ? Math.max(0, state.usedToday - count) : state.usedToday,
      // The pace moves back as well: permits never used do not hold the next ones back.
      ...(state.paceAt != null ? { paceAt: state.paceAt - count * paceIntervalMs(requestWindow(slotMs, marginMs), windowLimit(state, limits)) } : {}),
    },
    changed: true,
  };
}
