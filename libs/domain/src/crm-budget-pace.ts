import { countedSpanMs, type BudgetWindow } from './crm-budget-window';

/**
 * The even pace of a CRM account's permits (decision 20, addendum of 2026-11-28, later): besides
 * its window, a budget grants at the rate the window sustains, by virtual scheduling (a generic
 * cell rate algorithm) on one stored time, when the next permit is due (`paceAt`). The budget's
 * rules (crm-budget-rules.ts) ask these functions.
 */

/** How far grants may run ahead of the even pace: about a second of the account's rate at once. */
export const PACE_TOLERANCE_MS = 1_000;
/** Permits an account gets at once however small its limit: a replica's whole lease (decision 20). */
export const PACE_MIN_BURST = 5;

/** The even pace of an account: one permit per this many ms keeps a window of `limit` full, never over. */
export const paceIntervalMs = (window: BudgetWindow, limit: number): number => countedSpanMs(window) / Math.max(1, limit);

/** How far a stored due time may lie beyond what any grant leaves, for replicas' clocks that disagree a little. */
export const PACE_SKEW_MS = 1_000;

const paceTolerance = (intervalMs: number): number => Math.max(PACE_TOLERANCE_MS, (PACE_MIN_BURST - 1) * intervalMs);

/**
 * When the account's next permit is due at `now`: never before now, and a stored time no grant can
 * leave (a grant leaves it at most the tolerance and an interval ahead; a replica whose clock ran
 * far ahead wrote it) is ignored, so that one bad clock cannot stall every replica of the account.
 */
export function paceDue(paceAt: number | null | undefined, now: number, intervalMs: number): number {
  if (paceAt == null || paceAt > now + paceTolerance(intervalMs) + intervalMs + PACE_SKEW_MS) return now;
  return Math.max(paceAt, now);
}

/**
 * Permits grantable at `now` at an even pace (a generic cell rate algorithm): each permit moves the
 * due time on by the interval, and grants may run ahead of it by PACE_TOLERANCE_MS, or by
 * PACE_MIN_BURST permits where that is more. `until` (when there is no room): when the next one may
 * be granted, the due time less the tolerance.
 */
export function pacedRoom(paceAt: number | null | undefined, now: number, intervalMs: number): { room: number; until: number } {
  const tolerance = paceTolerance(intervalMs);
  const due = paceDue(paceAt, now, intervalMs);
  const room = Math.max(0, Math.floor((now + tolerance - due) / intervalMs) + 1);
  return { room, until: Math.ceil(due - tolerance) };
}
