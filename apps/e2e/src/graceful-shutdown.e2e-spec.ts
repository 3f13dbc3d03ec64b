import { TestStack, waitFor } from '@ecomm-sync/testing';

/**
 * Issue 15 item 5: on SIGTERM a worker stops taking work, finishes what it holds, hands its lease
 * back and exits in an orderly way. Before, the abandoned-checkout sweep's lease stayed taken until
 * it expired (30 s), so a restarted applier did not sweep meanwhile.
 */
describe('graceful shutdown of the applier', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm', 'applier'], env: { ABANDON_SWEEP_INTERVAL_MS: '100' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('when the applier holding the sweep lease gets SIGTERM, then it releases the lease and logs an orderly stop', async () => {
    const leases = await stack.syncCollection('leases');
    await waitFor(async () => (await leases.countDocuments({ _id: 'abandoned-checkout-sweep' } as never)) === 1, {
      message: 'the applier to take the sweep lease',
    });

    await stack.stopApp('applier', 'SIGTERM');

    expect(await leases.countDocuments({ _id: 'abandoned-checkout-sweep' } as never)).toBe(0);
    const messages = stack.logLines('applier').map((line) => line.message);
    expect(messages).toEqual(expect.arrayContaining(['applier stopping', 'abandoned-checkout sweep lease released', 'applier stopped']));
    expect(messages.indexOf('abandoned-checkout sweep lease released')).toBeLessThan(messages.indexOf('applier stopped'));
  });
});
