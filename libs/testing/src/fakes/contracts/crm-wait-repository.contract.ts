import type { CrmWaitRepository } from '@ecomm-sync/data-access';
import type { CrmWait } from '@ecomm-sync/domain';
import { aPortalId } from '../builders';
import type { PublicOf } from '../public-of';

type Waits = PublicOf<CrmWaitRepository>;

const aWait = (overrides: Partial<CrmWait> = {}): CrmWait => ({
  reason: 'rate-limited',
  since: 1_000,
  until: 2_000,
  tries: 1,
  lastAnswer: '429 Too Many Requests',
  ...overrides,
});

/** What the applier relies on from CrmWaitRepository; run against the fake and the real one. */
export function describeCrmWaitRepositoryContract(name: string, make: () => Waits | Promise<Waits>): void {
  describe(`CrmWaitRepository contract: ${name}`, () => {
    let waits: Waits;
    let portalId: number;
    beforeEach(async () => {
      waits = await make();
      portalId = aPortalId();
    });
    /** Only this case's portals: the real repository's database is shared by the suite. */
    const dueOf = async (now: number, portals: number[]) => (await waits.due(now, 10_000)).filter((stored) => portals.includes(stored.portalId));

    it('when a wait is set, then it is found; set again, it is replaced; a portal without one has none', async () => {
      await waits.set(portalId, aWait());
      await waits.set(portalId, aWait({ until: 3_000, tries: 2 }));
      expect(await waits.find(portalId)).toEqual(aWait({ until: 3_000, tries: 2 }));
      expect(await waits.find(aPortalId())).toBeNull();
    });

    it('when a change is stamped, then a missing wait is made from the one given and an existing one keeps its times', async () => {
      await waits.stamp(portalId, aWait({ until: 5_000 }), 's1');
      await waits.stamp(portalId, aWait({ until: 9_000 }), 's2');
      expect(await dueOf(5_000, [portalId])).toEqual([{ portalId, wait: aWait({ until: 5_000 }), stamp: 's2' }]);
    });

    it('when waits end at different times, then due gives those ended by now, the earliest first, at most the limit', async () => {
      const [early, late, future] = [aPortalId(), aPortalId(), aPortalId()];
      await waits.set(late, aWait({ until: 1_000_020 }));
      await waits.set(early, aWait({ until: 1_000_010 }));
      await waits.set(future, aWait({ until: 1_000_040 }));
      expect((await dueOf(1_000_030, [early, late, future])).map((stored) => stored.portalId)).toEqual([early, late]);
      expect(await waits.due(1_000_030, 1)).toHaveLength(1);
      expect(await waits.due(-1, 10)).toEqual([]);
    });

    it('when two replicas take the same ended wait, then one gets it with its lease and the other gets nothing', async () => {
      await waits.set(portalId, aWait());
      const [seen] = await dueOf(2_000, [portalId]);
      expect(await waits.takeForResume(seen, 60_000)).toEqual({ ...seen, wait: { ...seen.wait, until: 60_000 } });
      expect(await waits.takeForResume(seen, 70_000)).toBeNull();
      expect((await waits.find(portalId))?.until).toBe(60_000);
    });

    it('when a taken wait is released, then it is due at the time given; a release by a stale holder changes nothing', async () => {
      await waits.set(portalId, aWait());
      const [seen] = await dueOf(2_000, [portalId]);
      const taken = (await waits.takeForResume(seen, 60_000))!;
      await waits.release(seen, 1);
      expect((await waits.find(portalId))?.until).toBe(60_000);
      await waits.release(taken, 2_500);
      expect((await waits.find(portalId))?.until).toBe(2_500);
    });

    it('when a wait is cleared, then it goes unless a change was stamped or its time moved since it was read', async () => {
      await waits.stamp(portalId, aWait(), 's1');
      const [seen] = await dueOf(2_000, [portalId]);
      await waits.stamp(portalId, aWait(), 's2');
      expect(await waits.clear(seen)).toBe(false);
      const [again] = await dueOf(2_000, [portalId]);
      const taken = (await waits.takeForResume(again, 60_000))!;
      expect(await waits.clear(again)).toBe(false);
      expect(await waits.clear(taken)).toBe(true);
      expect(await waits.find(portalId)).toBeNull();
      expect(await waits.clear(taken)).toBe(false);
    });
  });
}
