import type { Tenant } from '@ecomm-sync/contracts';
import type { ParkedChange } from '@ecomm-sync/data-access';
import type { CrmWait } from '@ecomm-sync/domain';
import { aMappedChange, asRepositories, aTenant, FakeCrmWaitRepository, FakeParkedChangeRepository, recordingLogger } from '@ecomm-sync/testing';
import { CrmWaits } from './crm-waits';
import { ResumeCrmWorkUseCase } from './resume-crm-work.use-case';

const NOW = 1_000_000;

describe('ResumeCrmWorkUseCase', () => {
  let tenant: Tenant;
  let crmWaits: FakeCrmWaitRepository;
  let parkedChanges: FakeParkedChangeRepository;
  let applied: string[][];
  let applyParked: (parked: readonly ParkedChange[]) => Promise<void>;
  let useCase: ResumeCrmWorkUseCase;
  let slept: number[];

  beforeEach(async () => {
    tenant = aTenant();
    crmWaits = new FakeCrmWaitRepository();
    parkedChanges = new FakeParkedChangeRepository();
    applied = [];
    // Applying a page writes it to the CRM and releases it, as ApplyMappedChangesUseCase does.
    applyParked = async (parked) => {
      applied.push(parked.map((entry) => entry.change.externalObjectId));
      for (const entry of parked)
        await parkedChanges.release(entry, [{ externalObjectId: entry.change.externalObjectId, rev: entry.change.rev, settingsRev: entry.change.settingsRev }]);
    };
    const repositories = asRepositories({ crmWaits, parkedChanges });
    const clock = () => NOW;
    slept = [];
    useCase = new ResumeCrmWorkUseCase({
      repositories,
      apply: { applyParked: (parked: readonly ParkedChange[]) => applyParked(parked) },
      waits: new CrmWaits(repositories, clock),
      logger: recordingLogger().logger,
      clock,
      options: { pageSize: 2, leaseMs: 60_000, portalsPerRun: 10, patienceMs: 12_000 },
      sleep: async (ms: number) => void slept.push(ms),
    });
  });

  const waitUntil = (until: number): CrmWait => ({ reason: 'rate-limited', since: NOW - 10_000, until, tries: 1, lastAnswer: '429' });
  const park = (...ids: string[]) =>
    parkedChanges.park(
      { tenant, storeId: 'default', objectType: 'CONTACT' },
      ids.map((externalObjectId) => ({ change: aMappedChange({ externalObjectId }), reapply: false })),
      NOW - 5_000,
    );

  it('when a wait has ended, then the parked changes are applied page by page, oldest first, and the wait ends', async () => {
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await park('a', 'b', 'c');

    await useCase.run();

    expect(applied).toEqual([['a', 'b'], ['c']]);
    expect(await parkedChanges.count(tenant.portalId)).toBe(0);
    expect(await crmWaits.find(tenant.portalId)).toBeNull();
  });

  it('when a wait has not ended yet, then nothing is applied and it stays', async () => {
    await crmWaits.set(tenant.portalId, waitUntil(NOW + 1));
    await park('a');

    await useCase.run();

    expect(applied).toEqual([]);
    expect(await crmWaits.find(tenant.portalId)).toEqual(waitUntil(NOW + 1));
  });

  it('when the CRM is still unavailable during the resume, then the changes stay parked and a new wait starts', async () => {
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await park('a', 'b');
    applyParked = async () => {
      throw Object.assign(new Error('rate-limited'), { reason: 'rate-limited', until: NOW + 30_000, lastAnswer: '429 again' });
    };

    await useCase.run();

    expect(await parkedChanges.count(tenant.portalId)).toBe(2);
    expect(await crmWaits.find(tenant.portalId)).toMatchObject({ reason: 'rate-limited', lastAnswer: '429 again', until: expect.any(Number) });
    expect((await crmWaits.find(tenant.portalId))!.until).toBeGreaterThan(NOW);
  });

  it.each([
    ['after it applied a page, then the new wait starts over: first backoff step, a new since', 1, { tries: 1, since: NOW, until: NOW + 1_000 }],
    ['before it applied any page, then the wait grows: its tries and since go on', 0, { tries: 4, since: NOW - 60_000 }],
  ])('when the CRM stops answering during a resume %s', async (_case, pagesBefore, expected) => {
    await crmWaits.set(tenant.portalId, { reason: 'unreachable', since: NOW - 60_000, until: NOW - 1, tries: 3, lastAnswer: 'no answer' });
    await park('a', 'b', 'c');
    const apply = applyParked;
    let calls = 0;
    applyParked = async (parked) => {
      if (calls++ < pagesBefore) return apply(parked);
      throw Object.assign(new Error('timeout'), { reason: 'unreachable', until: null, lastAnswer: 'no answer: timeout of 15000ms exceeded' });
    };

    await useCase.run();

    expect(await crmWaits.find(tenant.portalId)).toMatchObject({ reason: 'unreachable', ...expected });
    expect(await parkedChanges.count(tenant.portalId)).toBe(3 - 2 * pagesBefore);
  });

  it('when the rate limit met during a resume ends within its patience (the next window), then it waits it out and goes on, the wait ended', async () => {
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await park('a', 'b', 'c');
    const apply = applyParked;
    let calls = 0;
    applyParked = async (parked) => {
      if (calls++ === 1) throw Object.assign(new Error('budget'), { reason: 'rate-limited', until: NOW + 11_000, lastAnswer: 'none yet' });
      return apply(parked);
    };

    await useCase.run();

    expect(slept).toEqual([11_000]);
    expect(applied).toEqual([['a', 'b'], ['c']]);
    expect(await parkedChanges.count(tenant.portalId)).toBe(0);
    expect(await crmWaits.find(tenant.portalId)).toBeNull();
  });

  it('when the rate limit keeps coming back without a page applied, then after three waits the portal goes back to a wait', async () => {
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await park('a');
    applyParked = async () => {
      throw Object.assign(new Error('budget'), { reason: 'rate-limited', until: NOW + 5_000, lastAnswer: 'none yet' });
    };

    await useCase.run();

    expect(slept).toEqual([5_000, 5_000, 5_000]);
    expect(await parkedChanges.count(tenant.portalId)).toBe(1);
    expect(await crmWaits.find(tenant.portalId)).toMatchObject({ reason: 'rate-limited', until: NOW + 5_000 });
  });

  it('when two portals are due, then both are resumed in one run, side by side', async () => {
    const other = aTenant();
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await crmWaits.set(other.portalId, waitUntil(NOW - 1));
    await park('a');
    await parkedChanges.park(
      { tenant: other, storeId: 'default', objectType: 'CONTACT' },
      [{ change: aMappedChange({ externalObjectId: 'z' }), reapply: false }],
      NOW,
    );
    const apply = applyParked;
    let release!: () => void;
    const bothStarted = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    applyParked = async (parked) => {
      if (++started === 2) release();
      await bothStarted; // neither finishes before the other has started
      return apply(parked);
    };

    await useCase.run();

    expect(applied.flat().sort()).toEqual(['a', 'z']);
  });

  it('when a portal’s resume is long, then a portal that becomes due meanwhile is started by the next run, and the long one is not started twice', async () => {
    const other = aTenant();
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await park('a');
    const apply = applyParked;
    let finishLong!: () => void;
    const longEnds = new Promise<void>((resolve) => (finishLong = resolve));
    let longPages = 0;
    applyParked = async (parked) => {
      if (parked[0].change.externalObjectId === 'a') {
        longPages++;
        await longEnds;
      }
      return apply(parked);
    };
    const long = await useCase.start();

    await crmWaits.set(other.portalId, waitUntil(NOW - 1));
    await parkedChanges.park(
      { tenant: other, storeId: 'default', objectType: 'CONTACT' },
      [{ change: aMappedChange({ externalObjectId: 'z' }), reapply: false }],
      NOW,
    );
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1)); // due again, as if its lease had run out
    await Promise.all(await useCase.start());

    expect(applied).toEqual([['z']]);
    expect(longPages).toBe(1);
    finishLong();
    await useCase.settled();
    await Promise.all(long);
    expect(applied.flat().sort()).toEqual(['a', 'z']);
  });

  it('when as many portals are resumed as a run may hold, then the next run starts none until one ends', async () => {
    const tenants = [aTenant(), aTenant(), aTenant()];
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const apply = applyParked;
    applyParked = async (parked) => {
      await held;
      return apply(parked);
    };
    const resumer = new ResumeCrmWorkUseCase({
      repositories: asRepositories({ crmWaits, parkedChanges }),
      apply: { applyParked: (parked: readonly ParkedChange[]) => applyParked(parked) },
      waits: new CrmWaits(asRepositories({ crmWaits, parkedChanges }), () => NOW),
      logger: recordingLogger().logger,
      clock: () => NOW,
      options: { pageSize: 2, leaseMs: 60_000, portalsPerRun: 2, patienceMs: 12_000 },
    });
    for (const [i, other] of tenants.entries()) {
      await crmWaits.set(other.portalId, waitUntil(NOW - 10 + i));
      await parkedChanges.park(
        { tenant: other, storeId: 'default', objectType: 'CONTACT' },
        [{ change: aMappedChange({ externalObjectId: `p${i}` }), reapply: false }],
        NOW,
      );
    }

    const first = await resumer.start();
    const second = await resumer.start();

    expect([first.length, second.length]).toEqual([2, 0]);
    finish();
    await Promise.all(first);
    expect(applied.flat().sort()).toEqual(['p0', 'p1']);
    await resumer.run();
    expect(applied.flat().sort()).toEqual(['p0', 'p1', 'p2']);
  });

  it('when applying fails for another reason, then the changes stay parked and the wait backs off like an unreachable CRM, saying why', async () => {
    await crmWaits.set(tenant.portalId, waitUntil(NOW - 1));
    await park('a');
    applyParked = async () => {
      throw new Error('the database went away');
    };

    await useCase.run();

    expect(await parkedChanges.count(tenant.portalId)).toBe(1);
    // The wait's second try: 2 s, doubling up to a minute (nextCrmWait), not every second.
    expect(await crmWaits.find(tenant.portalId)).toMatchObject({
      reason: 'unreachable',
      until: NOW + 2_000,
      tries: 2,
      lastAnswer: 'resuming the parked changes failed: Error: the database went away',
    });
  });

  it('when a change is parked while the resume runs, then the wait is not ended but made due again', async () => {
    await crmWaits.stamp(tenant.portalId, waitUntil(NOW - 1), 'before');
    await park('a');
    const apply = applyParked;
    applyParked = async (parked) => {
      await apply(parked);
      await crmWaits.stamp(tenant.portalId, waitUntil(NOW - 1), 'meanwhile');
    };

    await useCase.run();

    expect(applied).toEqual([['a']]);
    expect((await crmWaits.find(tenant.portalId))?.until).toBe(NOW);
  });
});
