import { aV2Message, aV2Submission, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { gatewayClient, requireCrmId } from './gateway-client';

const WINDOW_MS = 2500;

/**
 * Issue 5: deals left in checkout_pending move to checkout_abandoned after the window (seconds
 * here instead of 24 hours), with two applier replicas sweeping at once.
 */
describe('abandoned checkouts over the running stack, two appliers', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    stack = await TestStack.start({
      apps: ['crm', 'gateway', 'mapper', 'applier'],
      env: { ABANDON_AFTER_MS: String(WINDOW_MS), ABANDON_SWEEP_INTERVAL_MS: '200', ABANDON_SWEEP_BATCH: '3' },
    });
    await stack.startApp('applier', 'b');
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const stageOf = async (id: string) => {
    const { crmId } = await client.processed('DEAL', id);
    const [deal] = await stack.crm(portal).batchRead('DEAL', [requireCrmId(crmId)], ['dealstage']);
    return deal.properties.dealstage;
  };

  it('moves each deal still pending after the window exactly once, and leaves deals that moved on', async () => {
    const abandoned = ['cart-1', 'cart-2', 'cart-3', 'cart-4', 'cart-5', 'cart-6', 'cart-7'];
    const pending = (id: string) =>
      aV2Message({ externalObjectId: id, changedAt: Date.now(), properties: { dealname: `Cart ${id}`, dealstage: 'checkout_pending' } });
    await client.putV2(aV2Submission('DEAL', [...abandoned, 'paid-in-time', 'moved-in-crm'].map(pending)));
    for (const id of [...abandoned, 'paid-in-time', 'moved-in-crm']) expect(await stageOf(id)).toBe('checkout_pending');

    // Within the window: one is paid through the service, one is moved by a user in the CRM.
    await client.putV2(
      aV2Submission('DEAL', [aV2Message({ externalObjectId: 'paid-in-time', changedAt: Date.now() + 1, properties: { dealstage: 'checkout_completed' } })]),
    );
    await waitFor(async () => (await stageOf('paid-in-time')) === 'checkout_completed', { message: 'the paid deal to be completed' });
    const { crmId } = await client.processed('DEAL', 'moved-in-crm');
    await stack.crm(portal).batchUpdate('DEAL', [{ id: requireCrmId(crmId), properties: { dealstage: 'processed' } }]);

    for (const id of abandoned) {
      await waitFor(async () => (await stageOf(id)) === 'checkout_abandoned', { timeoutMs: 20_000, message: `${id} to be abandoned` });
    }
    expect(await stageOf('paid-in-time')).toBe('checkout_completed');
    expect(await stageOf('moved-in-crm')).toBe('processed');

    // Each deal was moved once, across both replicas, and by the one replica holding the lease.
    const movesOf = (instance: string) =>
      stack
        .logLines('applier', instance)
        .filter((line) => line.message === 'abandoned checkouts moved' && line.portalId === portal.portalId)
        .flatMap((line) => line.externalObjectIds as string[]);
    const byReplica = [movesOf(''), movesOf('b')];
    expect(byReplica.flat().sort()).toEqual([...abandoned].sort());
    expect(byReplica.filter((moves) => moves.length > 0)).toHaveLength(1);
  });
});
