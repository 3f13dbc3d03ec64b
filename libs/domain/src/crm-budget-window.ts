/**
 * The rolling windows of a CRM account's request budget (decision 20), counted in time slots: which
 * slots a window at a given time still counts, how many permits it holds, and when it next has room.
 * Pure arithmetic on slot counts; the budget's rules (crm-budget-rules.ts) decide with it.
 */

/** Permits granted in one slot: `at` is the slot's start (epoch ms). */
export interface SlotCount {
  at: number;
  n: number;
}

/** A rolling window counted in slots; `marginSlots` more slots are counted than the window spans. */
export interface BudgetWindow {
  windowMs: number;
  slotMs: number;
  marginSlots: number;
}

export const CRM_WINDOW_MS = 10_000;
export const CRM_SEARCH_WINDOW_MS = 1_000;

/**
 * The request window: 10 s, counted as the slots it can overlap (one more than it spans, since a
 * window rarely starts on a slot's start) plus a margin of at least `marginMs` (one slot unless
 * said), so that requests sent at a slot's end and counted by the CRM up to `marginMs` later still
 * never exceed the limit.
 */
export const requestWindow = (slotMs: number, marginMs = slotMs): BudgetWindow => ({
  windowMs: CRM_WINDOW_MS,
  slotMs,
  marginSlots: Math.max(1, Math.ceil(marginMs / slotMs)),
});

/** The search window: 1 s in slots of at most 100 ms (slots of 500 ms would halve what 1 s allows). */
export const searchWindow = (slotMs: number): BudgetWindow => ({ windowMs: CRM_SEARCH_WINDOW_MS, slotMs: Math.min(slotMs, 100), marginSlots: 1 });

export const slotStart = (now: number, slotMs: number): number => Math.floor(now / slotMs) * slotMs;

/** The oldest slot start that still counts at `now`. */
export function windowStart(now: number, window: BudgetWindow): number {
  const spanned = Math.ceil(window.windowMs / window.slotMs);
  return slotStart(now, window.slotMs) - (spanned + window.marginSlots) * window.slotMs;
}

/** How long a slot's grants count: the slots the window spans, its margin, and the slot itself. */
export const countedSpanMs = (window: BudgetWindow): number => (Math.ceil(window.windowMs / window.slotMs) + window.marginSlots + 1) * window.slotMs;

/** Permits that count against the window at `now`. */
export function usedInWindow(grants: readonly SlotCount[], now: number, window: BudgetWindow): number {
  const from = windowStart(now, window);
  return grants.reduce((sum, grant) => (grant.at >= from ? sum + grant.n : sum), 0);
}

/** The earliest time (now, or a later slot start) at which the window has room for one more permit. */
export function nextFreeAt(grants: readonly SlotCount[], now: number, window: BudgetWindow, limit: number): number {
  let used = usedInWindow(grants, now, window);
  if (used < limit) return now;
  const lookback = windowStart(now, window) - slotStart(now, window.slotMs);
  const counted = grants.filter((grant) => grant.at >= windowStart(now, window)).sort((a, b) => a.at - b.at);
  for (const grant of counted) {
    used -= grant.n;
    // The first slot whose window no longer holds this grant.
    if (used < limit) return grant.at - lookback + window.slotMs;
  }
  return slotStart(now, window.slotMs) + window.slotMs; // a limit of 0: nothing frees up but time
}

/** Adds permits to the slot of `now` and forgets the slots the window no longer counts. */
export function addToSlot(grants: readonly SlotCount[], now: number, count: number, window: BudgetWindow): SlotCount[] {
  const at = slotStart(now, window.slotMs);
  const from = windowStart(now, window);
  const kept = grants.filter((grant) => grant.at >= from && grant.at !== at);
  const current = grants.find((grant) => grant.at === at)?.n ?? 0;
  return [...kept, { at, n: current + count }].sort((a, b) => a.at - b.at);
}
