import { PENDING_STAGE } from './ecommerce-setup';

/**
 * The abandoned checkout (SPEC.md "Ecommerce workflows"), as one function of the stored state and
 * an event: a deal the applier writes in `checkout_pending` is pending from the first time it is;
 * once it has been pending for 24 hours it is due, and the sweep moves it to `checkout_abandoned`
 * unless the CRM shows it moved on meanwhile. A later stage, a deletion or workflows turned off
 * cancel it. Use cases and repositories hold no part of this rule.
 */

/** A pending checkout as stored: null when the deal is not pending (nothing stored). */
export interface PendingCheckoutState {
  crmId: number;
  pendingSince: number;
}

export type CheckoutEvent =
  /**
   * The applier wrote the deal. `stage` is its mapped stage: undefined when the mapped state
   * carries none (the checkout stays as it was), null when the deal was deleted. `crmId` is null
   * when the deal has no live CRM object.
   */
  | { kind: 'deal-applied'; stage: string | null | undefined; crmId: number | null; now: number }
  /**
   * The sweep looked at a due checkout: whether its portal is enabled, whether the tenant's
   * workflows are on, and the deal's stage in the CRM now (undefined when the CRM has no such deal).
   */
  | { kind: 'swept'; portalActive: boolean; workflowsOn: boolean; crmStage: string | undefined };

export type CheckoutEffect = { kind: 'move-to-abandoned'; crmId: number };

/** `next` is the state itself (the same object) when the event changes nothing; null: forgotten. */
export interface CheckoutTransition {
  next: PendingCheckoutState | null;
  effects: CheckoutEffect[];
}

export function checkoutTransition(state: PendingCheckoutState | null, event: CheckoutEvent): CheckoutTransition {
  switch (event.kind) {
    case 'deal-applied':
      return { next: afterApply(state, event), effects: [] };
    case 'swept':
      return swept(state, event);
  }
}

/**
 * What writing a deal does to its checkout: `pending` when it is in checkout_pending with a live CRM
 * object, `cancelled` at any other stage or deleted, `unchanged` when its mapped state has no stage.
 */
export function appliedCheckout(stage: string | null | undefined, crmId: number | null): 'pending' | 'cancelled' | 'unchanged' {
  if (stage === undefined) return 'unchanged';
  return stage === PENDING_STAGE && crmId !== null ? 'pending' : 'cancelled';
}

/** Pending from the first time it is (a pending deal written again keeps its time). */
function afterApply(state: PendingCheckoutState | null, { stage, crmId, now }: Extract<CheckoutEvent, { kind: 'deal-applied' }>): PendingCheckoutState | null {
  const verdict = appliedCheckout(stage, crmId);
  if (verdict === 'unchanged') return state;
  return verdict === 'pending' ? { crmId: crmId!, pendingSince: state?.pendingSince ?? now } : null;
}

/**
 * A disabled portal's checkouts are kept (swept once it is enabled again); with workflows off they
 * are forgotten unmoved; a deal still pending in the CRM moves to abandoned; one that moved on or
 * is gone is forgotten.
 */
function swept(state: PendingCheckoutState | null, event: Extract<CheckoutEvent, { kind: 'swept' }>): CheckoutTransition {
  if (state === null || !event.portalActive) return { next: state, effects: [] };
  if (!event.workflowsOn || event.crmStage !== PENDING_STAGE) return { next: null, effects: [] };
  return { next: null, effects: [{ kind: 'move-to-abandoned', crmId: state.crmId }] };
}

/** Checkouts pending since this time or earlier are due (the sweep's query). */
export const checkoutsDueBefore = (now: number, abandonAfterMs: number): number => now - abandonAfterMs;

export const isCheckoutDue = (state: PendingCheckoutState, now: number, abandonAfterMs: number): boolean =>
  state.pendingSince <= checkoutsDueBefore(now, abandonAfterMs);
