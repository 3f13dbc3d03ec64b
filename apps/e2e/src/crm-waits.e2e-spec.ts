import { aV2Message, aV2Submission, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { deadLetterCount } from './dead-letter-count';
import { gatewayClient } from './gateway-client';

describe('a CRM that is away: work waits, it does not fail', () => {
  let stack: TestStack;
  let portal: TestPortal;

  beforeAll(async () => {
    // Two quick attempts: if waiting counted toward them, the changes would be dead-lettered within the test.
    stack = await TestStack.start({ env: { AMQP_RETRY_DELAY_MS: '200', AMQP_MAX_ATTEMPTS: '2', LOG_LEVEL: 'warn' } });
    portal = await stack.createPortal();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('when the built-in CRM is stopped for longer than every retry and backoff, then the portal reads unreachable meanwhile, and once it is back every accepted object is applied with nothing dead-lettered', async () => {
    const client = gatewayClient(stack, portal);
    const before = Array.from({ length: 150 }, (_, i) => `away-${i}`);
    await stack.stopApp('crm', 'SIGKILL');
    for (let i = 0; i < before.length; i += 50) {
      await client.putV2(
        aV2Submission(
          'CONTACT',
          before.slice(i, i + 50).map((id) => aV2Message({ externalObjectId: id, properties: { email: `${id}@example.com`, firstname: 'v1' } })),
        ),
      );
    }
    const health = await waitFor(
      async () => {
        const response = await client.http.get('/v2/sync/crm-health');
        return response.data.state === 'unreachable' && response.data.parkedChanges === before.length && response.data.until > response.data.since
          ? response.data
          : undefined;
      },
      { timeoutMs: 30_000, message: 'the CRM health to say unreachable with every change parked' },
    );
    expect(health.message).toMatch(/^CRM unreachable since /);
    // Newer values sent while it is away win over the parked ones.
    await client.putV2(
      aV2Submission(
        'CONTACT',
        before.slice(0, 50).map((id) => aV2Message({ externalObjectId: id, changedAt: Date.now() + 1000, properties: { firstname: 'v2' } })),
      ),
    );
    // Longer than the client's retries, the message retries (2 attempts, 200 ms) and the first backoffs.
    await waitFor(async () => ((await client.http.get('/v2/sync/crm-health')).data.tries >= 3 ? true : undefined), {
      timeoutMs: 30_000,
      message: 'the portal to have waited through three backoffs',
    });
    expect(await deadLetterCount(stack)).toBe(0);

    await stack.startApp('crm');
    for (const id of before) {
      const status = await client.statusWhen('CONTACT', id, (s) => s.crmId !== null, `${id} to be applied once the CRM is back`);
      expect(status.errors).toEqual([]);
    }
    await waitFor(async () => ((await client.http.get('/v2/sync/crm-health')).data.state === 'ok' ? true : undefined), {
      timeoutMs: 30_000,
      message: 'the wait to end',
    });
    const crmIds = await Promise.all(before.slice(0, 50).map(async (id) => (await client.processed('CONTACT', id)).crmId!));
    const read = await stack.crm(portal).batchRead('CONTACT', crmIds, ['firstname']);
    expect(read.map((object) => object.properties.firstname)).toEqual(crmIds.map(() => 'v2'));
    expect(await deadLetterCount(stack)).toBe(0);
  });
});
