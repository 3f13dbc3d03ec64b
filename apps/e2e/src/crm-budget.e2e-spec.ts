import axios from 'axios';
import { CrmAdminClient } from '@ecomm-sync/crm-client';
import { aV2Message, aV2Submission, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { deadLetterCount } from './dead-letter-count';
import { gatewayClient } from './gateway-client';

interface Load {
  portal: TestPortal;
  contacts: number;
  deals: number;
}

describe('one CRM request budget per account, shared by every applier replica (built-in CRM with the hosted limits)', () => {
  let stack: TestStack;
  let admin: CrmAdminClient;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { LOG_LEVEL: 'warn' } });
    await stack.startApp('applier', 'b');
    admin = new CrmAdminClient(stack.crmUrl, stack.adminToken);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** A portal whose CRM account allows `burstPer10s` requests in any 10 s, and whose connection says so, so that our budget governs. */
  async function limitedPortal(burstPer10s: number, dailyCap = 1_000_000): Promise<TestPortal> {
    const portal = await stack.createPortal();
    await admin.setLimits(portal.portalId, { burstPer10s, dailyCap, timeZone: 'UTC', searchPerSecond: 4 });
    await axios.put(
      `${stack.gatewayUrl}/admin/v1/portals/${portal.portalId}/crm-connection`,
      { kind: 'builtin', limits: { burstPer10s, dailyCap: null, timeZone: 'UTC', searchPerSecond: 4 } },
      { headers: { authorization: `Bearer ${stack.adminToken}` } },
    );
    return portal;
  }

  /** Contacts, then deals each associated with a contact, in v2 batches of 200. */
  async function send({ portal, contacts, deals }: Load, prefix: string): Promise<void> {
    const client = gatewayClient(stack, portal);
    for (let i = 0; i < contacts; i += 200) {
      const ids = Array.from({ length: Math.min(200, contacts - i) }, (_, k) => `${prefix}-c-${i + k}`);
      await client.putV2(
        aV2Submission(
          'CONTACT',
          ids.map((id) => aV2Message({ externalObjectId: id, properties: { email: `${id}@example.com`, firstname: 'Budget' } })),
        ),
      );
    }
    for (let i = 0; i < deals; i += 200) {
      const ids = Array.from({ length: Math.min(200, deals - i) }, (_, k) => i + k);
      await client.putV2(
        aV2Submission(
          'DEAL',
          ids.map((n) =>
            aV2Message({
              externalObjectId: `${prefix}-d-${n}`,
              properties: { dealname: `Order ${n}`, dealstage: 'checkout_completed', amount: '10' },
              associations: { CONTACT: [`${prefix}-c-${n % contacts}`] },
            }),
          ),
        ),
      );
    }
  }

  const applied = async (portal: TestPortal): Promise<number> =>
    (await stack.syncCollection('object_syncs')).countDocuments({ portalId: portal.portalId, crmId: { $ne: null }, lastProcessedAt: { $ne: null } });

  it('when 20,000 objects of three portals go through two appliers, then everything is applied, nothing is dead-lettered, no 10 s window of any account holds more than its limit, and the portal limited hard holds up no other', async () => {
    const loads: Load[] = [
      { portal: await limitedPortal(100), contacts: 4_000, deals: 4_000 },
      { portal: await limitedPortal(100), contacts: 4_000, deals: 4_000 },
      { portal: await limitedPortal(10), contacts: 2_000, deals: 2_000 },
    ];
    const [first, second, hard] = loads;
    await Promise.all(loads.map((load, i) => send(load, `p${i}`)));

    const total = (load: Load) => load.contacts + load.deals;
    await waitFor(async () => ((await applied(first.portal)) === total(first) && (await applied(second.portal)) === total(second) ? true : undefined), {
      timeoutMs: 240_000,
      message: 'the two portals limited to 100 per 10 s to be applied',
    });
    // The portal limited to 10 per 10 s is still at it: it did not make the others wait.
    expect(await applied(hard.portal)).toBeLessThan(total(hard));

    await waitFor(async () => ((await applied(hard.portal)) === total(hard) ? true : undefined), {
      timeoutMs: 300_000,
      message: 'the portal limited to 10 per 10 s to be applied',
    });
    for (const [load, limit] of [
      [first, 100],
      [second, 100],
      [hard, 10],
    ] as const) {
      const usage = await admin.usage(load.portal.portalId);
      expect(usage.maxIn10s).toBeLessThanOrEqual(limit);
    }
    expect(await deadLetterCount(stack)).toBe(0);
  });

  it('when the daily cap is reached, then the portal pauses and says so, and resumes after the reset', async () => {
    // 2,000 contacts cost 20 upserts (one per 100, by e-mail): a cap of 12 is reached midway.
    const portal = await limitedPortal(100, 12);
    const client = gatewayClient(stack, portal);
    const resetAt = Date.now() + 20_000;
    await admin.resetDaily(portal.portalId, resetAt);
    const load = { portal, contacts: 2_000, deals: 0 };
    await send(load, 'daily');

    const paused = await waitFor(
      async () => {
        const health = (await client.http.get('/v2/sync/crm-health')).data;
        return health.state === 'daily-cap' ? health : undefined;
      },
      { timeoutMs: 60_000, message: 'the CRM health to say the daily cap is reached' },
    );
    expect(paused.message).toMatch(/^daily request cap reached; paused until /);
    expect(paused.until).toBeGreaterThanOrEqual(resetAt - 1_000); // until the CRM's announced reset, not before
    expect(await applied(portal)).toBeLessThan(load.contacts);
    // The next day's cap is the account's usual one: the rest fits in it, however many requests the
    // pause cost (a change parked midway is written again).
    await admin.setLimits(portal.portalId, { burstPer10s: 100, dailyCap: 1_000_000, timeZone: 'UTC', searchPerSecond: 4 });

    await waitFor(async () => ((await applied(portal)) === load.contacts ? true : undefined), {
      timeoutMs: 120_000,
      message: 'every contact to be applied after the reset',
    });
    await waitFor(async () => ((await client.http.get('/v2/sync/crm-health')).data.state === 'ok' ? true : undefined), {
      timeoutMs: 30_000,
      message: 'the pause to end',
    });
    expect(await deadLetterCount(stack)).toBe(0);
  });
});
