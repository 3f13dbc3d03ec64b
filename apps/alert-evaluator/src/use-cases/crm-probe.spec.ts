import { CrmRequestError, type CrmPort } from '@ecomm-sync/crm-client';
import type { Portal } from '@ecomm-sync/data-access';
import { aPortal, FakePortalRepository } from '@ecomm-sync/testing';
import { crmProbe } from './crm-probe';

const MINUTE = 60_000;

describe('crmProbe', () => {
  let portals: FakePortalRepository;
  let now: number;
  /** The deal-pipeline reads that reached the CRM, by portal. */
  let reads: number[];
  /** What the CRM answers the next reads: pipelines, or a refusal or failure with this status. */
  let answer: 'ok' | number;

  const connections = {
    clientFor: (portal: Portal) =>
      ({
        listDealPipelines: async () => {
          reads.push(portal.portalId);
          if (answer !== 'ok') throw new CrmRequestError(`answered ${answer}`, answer);
          return [];
        },
      }) as unknown as CrmPort,
  };
  const aProbe = () => crmProbe(portals, connections, { everyMs: 5 * MINUTE, clock: () => now });

  beforeEach(() => {
    portals = new FakePortalRepository();
    now = 1_700_000_000_000;
    reads = [];
    answer = 'ok';
  });

  it('when a portal is probed on every tick then its connection is read once per interval, and its answer stands in between', async () => {
    const { portalId } = portals.put(aPortal());
    const probe = aProbe();

    const answers = [];
    for (let minute = 0; minute <= 10; minute++, now += MINUTE) {
      if (minute === 2) answer = 401; // revoked after the first read: seen at the next one
      answers.push(await probe(portalId));
    }

    expect(reads).toEqual([portalId, portalId, portalId]);
    expect(answers).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'refused', 'refused', 'refused', 'refused', 'refused', 'refused']);
  });

  it.each([
    [403, 'refused'],
    [429, 'unknown'],
    [503, 'unknown'],
  ] as const)('when the CRM answers %s then the probe says %s, and remembers it until the interval passed', async (status, said) => {
    const { portalId } = portals.put(aPortal());
    const probe = aProbe();
    answer = status;

    expect(await probe(portalId)).toBe(said);
    answer = 'ok';
    now += 5 * MINUTE - 1;
    expect(await probe(portalId)).toBe(said);
    now += 1;
    expect(await probe(portalId)).toBe('ok');
    expect(reads).toHaveLength(2);
  });

  it('when two portals are probed, or a portal’s connection is set again, then each connection is read on its own', async () => {
    const first = portals.put(aPortal());
    const second = portals.put(aPortal());
    const probe = aProbe();
    answer = 401;
    await probe(first.portalId);
    await probe(second.portalId);

    answer = 'ok';
    now += MINUTE;
    portals.put({ ...first, crmConnection: { kind: 'builtin', limits: null, changedAt: now } });

    expect(await probe(first.portalId)).toBe('ok');
    expect(await probe(second.portalId)).toBe('refused');
    expect(reads).toEqual([first.portalId, second.portalId, first.portalId]);
  });

  it('when the portal is gone then the probe cannot tell and reads nothing', async () => {
    expect(await aProbe()(424242)).toBe('unknown');
    expect(reads).toEqual([]);
  });
});
