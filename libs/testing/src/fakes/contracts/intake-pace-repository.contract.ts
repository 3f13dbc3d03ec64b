import type { IntakePaceRepository } from '@ecomm-sync/data-access';
import { INTAKE_SKEW_MS, type IntakeLimits } from '@ecomm-sync/domain';
import { aPortalId } from '../builders';
import type { PublicOf } from '../public-of';

type Paces = PublicOf<IntakePaceRepository>;

/** A take's limits: its latest due, and the stored due beyond which a clock ran ahead (the skew past it by default). */
const until = (latestDue: number, plausibleUntil = latestDue + INTAKE_SKEW_MS): IntakeLimits => ({ latestDue, plausibleUntil });

/** What the gateway's intake pace relies on from IntakePaceRepository; run against the fake and the real one. */
export function describeIntakePaceRepositoryContract(name: string, make: () => Paces | Promise<Paces>): void {
  describe(`IntakePaceRepository contract: ${name}`, () => {
    let paces: Paces;
    let portalId: number;
    beforeEach(async () => {
      paces = await make();
      portalId = aPortalId();
    });

    it('when a portal takes for the first time, then its due is now plus the cost', async () => {
      expect(await paces.take(portalId, 100, 1_000, until(5_000))).toEqual({ taken: true, due: 1_100 });
      expect(await paces.find(portalId)).toBe(1_100);
      expect(await paces.find(aPortalId())).toBeNull();
    });

    it('when a portal takes again before its due, then the cost is added to its due', async () => {
      await paces.take(portalId, 100, 1_000, until(5_000));
      expect(await paces.take(portalId, 300, 1_050, until(5_000))).toEqual({ taken: true, due: 1_400 });
    });

    it('when a portal was idle past its due, then the cost is added from now', async () => {
      await paces.take(portalId, 100, 1_000, until(5_000));
      expect(await paces.take(portalId, 100, 9_000, until(20_000))).toEqual({ taken: true, due: 9_100 });
    });

    it('when a take would end exactly at the latest due, then it is taken; beyond it, it is refused and the due stays', async () => {
      await paces.take(portalId, 1_000, 1_000, until(5_000));
      expect(await paces.take(portalId, 3_000, 1_000, until(5_000))).toEqual({ taken: true, due: 5_000 });
      expect(await paces.take(portalId, 1, 1_000, until(5_000))).toEqual({ taken: false, due: 5_000 });
      expect(await paces.find(portalId)).toBe(5_000);
    });

    it('when a refused portal was idle past its due, then the due it answers is now', async () => {
      await paces.take(portalId, 100, 1_000, until(5_000));
      expect(await paces.take(portalId, 10_000, 2_000, until(6_000))).toEqual({ taken: false, due: 2_000 });
    });

    it('when a portal’s first batch is bigger than any take, then it is refused and nothing is stored', async () => {
      expect(await paces.take(portalId, 10_000, 1_000, until(5_000))).toEqual({ taken: false, due: 1_000 });
      expect(await paces.find(portalId)).toBeNull();
    });

    it('when the stored due lies beyond what any take leaves (a clock ran ahead), then the take starts from now; within it, it is honoured', async () => {
      await paces.take(portalId, 100, 10_000_000, until(10_003_700)); // a replica hours ahead stored 10,000,100
      expect(await paces.take(portalId, 100, 1_000, until(5_000))).toEqual({ taken: true, due: 1_100 });
      const near = aPortalId();
      await paces.take(near, 5_800, 0, until(6_000)); // stored 5,800: beyond this take's latest, within what is plausible
      expect(await paces.take(near, 100, 0, until(5_000))).toEqual({ taken: false, due: 5_800 });
    });

    it('when a take may not wait at all but the portal’s due lies ahead within its window, then it is refused and the backlog stays', async () => {
      await paces.take(portalId, 4_000, 0, until(5_000));
      expect(await paces.take(portalId, 100, 0, until(200, 65_000))).toEqual({ taken: false, due: 4_000 });
      expect(await paces.find(portalId)).toBe(4_000);
    });

    it('when a taken batch is given back, then its cost is the portal’s again, never to before now; a portal never seen is unchanged', async () => {
      await paces.take(portalId, 100, 1_000, until(5_000));
      await paces.take(portalId, 200, 1_000, until(5_000));
      await paces.giveBack(portalId, 200, 1_000);
      expect(await paces.find(portalId)).toBe(1_100);
      await paces.giveBack(portalId, 200, 1_050);
      expect(await paces.find(portalId)).toBe(1_050);
      const other = aPortalId();
      await paces.giveBack(other, 200, 1_000);
      expect(await paces.find(other)).toBeNull();
    });

    it('when portals took since a time or still have a backlog, then they are the ones sending since it, at most as many as asked', async () => {
      const base = 3e12 + Math.floor(Math.random() * 1e9); // beyond every other test's times on a shared collection
      const [recent, backlogged, quiet] = [portalId, aPortalId(), aPortalId()];
      await paces.take(recent, 10, base, until(base + 5_000));
      await paces.take(backlogged, 4_000, base - 3_000, until(base + 5_000)); // due base + 1,000
      await paces.take(quiet, 10, base - 6_000, until(base)); // due base - 5,990
      expect((await paces.sendingSince(base - 5_000, 10)).sort((a, b) => a - b)).toEqual([recent, backlogged].sort((a, b) => a - b));
      expect(await paces.sendingSince(base - 5_000, 1)).toHaveLength(1);
      expect(await paces.sendingSince(base + 1_000, 10)).toEqual([]);
      expect(await paces.sendingSince(base - 5_000, 10, 1_000)).toHaveLength(2); // with the server's time limit
    });

    it('when replicas take for one portal at once, then every cost is counted once', async () => {
      const takes = await Promise.all(Array.from({ length: 20 }, () => paces.take(portalId, 10, 1_000, until(100_000))));
      expect(takes.every((take) => take.taken)).toBe(true);
      expect(takes.map((take) => take.due).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 1_010 + 10 * i));
      expect(await paces.find(portalId)).toBe(1_200);
    });
  });
}
