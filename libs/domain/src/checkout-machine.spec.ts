import { checkoutTransition, isCheckoutDue, type CheckoutEvent, type CheckoutTransition, type PendingCheckoutState } from './checkout-machine';
import { ABANDONED_STAGE, PENDING_STAGE } from './ecommerce-setup';

const T = 1_700_000_000_000;
const DAY = 24 * 60 * 60 * 1000;
const pending: PendingCheckoutState = { crmId: 7, pendingSince: T };

const applied = (stage: string | null | undefined, crmId: number | null = 7, now = T + 5): CheckoutEvent => ({ kind: 'deal-applied', stage, crmId, now });
const swept = (crmStage: string | undefined, { portalActive = true, workflowsOn = true } = {}): CheckoutEvent => ({
  kind: 'swept',
  portalActive,
  workflowsOn,
  crmStage,
});
const move = (crmId: number) => ({ kind: 'move-to-abandoned' as const, crmId });

describe('checkoutTransition', () => {
  it.each<[string, PendingCheckoutState | null, CheckoutEvent, CheckoutTransition]>([
    ['a deal applied in checkout_pending', null, applied(PENDING_STAGE), { next: { crmId: 7, pendingSince: T + 5 }, effects: [] }],
    ['a pending deal applied in checkout_pending again', pending, applied(PENDING_STAGE, 8), { next: { crmId: 8, pendingSince: T }, effects: [] }],
    ['a pending deal applied at a later stage', pending, applied('checkout_completed'), { next: null, effects: [] }],
    ['a pending deal deleted', pending, applied(null), { next: null, effects: [] }],
    ['a deal applied in checkout_pending without a live CRM object', null, applied(PENDING_STAGE, null), { next: null, effects: [] }],
    ['a pending deal applied without a stage in its mapped state', pending, applied(undefined), { next: pending, effects: [] }],
    ['a deal that is not pending applied without a stage', null, applied(undefined), { next: null, effects: [] }],
    ['a due checkout swept while the CRM still shows it pending', pending, swept(PENDING_STAGE), { next: null, effects: [move(7)] }],
    ['a due checkout swept after it moved on in the CRM', pending, swept('checkout_completed'), { next: null, effects: [] }],
    ['a due checkout swept after it was abandoned in the CRM already', pending, swept(ABANDONED_STAGE), { next: null, effects: [] }],
    ['a due checkout swept whose deal the CRM no longer has', pending, swept(undefined), { next: null, effects: [] }],
    ['a due checkout swept while the tenant has workflows off', pending, swept(PENDING_STAGE, { workflowsOn: false }), { next: null, effects: [] }],
    ['a due checkout swept while its portal is disabled', pending, swept(PENDING_STAGE, { portalActive: false }), { next: pending, effects: [] }],
    ['a checkout forgotten meanwhile swept', null, swept(PENDING_STAGE), { next: null, effects: [] }],
  ])('when %s then the transition is as the table says', (_case, state, event, expected) => {
    expect(checkoutTransition(state, event)).toEqual(expected);
  });

  it('when an event changes nothing then next is the state itself (nothing to write)', () => {
    expect(checkoutTransition(pending, applied(undefined)).next).toBe(pending);
    expect(checkoutTransition(pending, swept(PENDING_STAGE, { portalActive: false })).next).toBe(pending);
  });
});

describe('isCheckoutDue', () => {
  it.each([
    ['pending for 24 hours exactly', true, T + DAY],
    ['pending for longer', true, T + DAY + 1],
    ['pending for less than 24 hours', false, T + DAY - 1],
  ])('when %s then due is %s', (_case, due, now) => {
    expect(isCheckoutDue(pending, now, DAY)).toBe(due);
  });
});
