import type { CrmWait } from '@ecomm-sync/domain';
import { aMappedChange, asRepositories, aTenant, FakeCrmWaitRepository, FakeParkedChangeRepository, recordingLogger } from '@ecomm-sync/testing';
import type { ChangeGroup } from './change-group';
import { CrmWaits } from './crm-waits';

const NOW = 1_000_000;

describe('CrmWaits', () => {
  const tenant = aTenant();
  const lease: CrmWait = { reason: 'rate-limited', since: NOW - 10_000, until: NOW + 60_000, tries: 1, lastAnswer: '429' };
  const group = (): ChangeGroup => ({
    tenant,
    storeId: 'default',
    objectType: 'CONTACT',
    changes: new Map([['a', aMappedChange({ externalObjectId: 'a' })]]),
    reapply: new Set(),
    suspect: new Set(),
    fromWaiting: new Set(),
    messageIndexes: new Set([0]),
  });

  it('when a change is parked under a cached wait that a resume has ended meanwhile, then the wait made again is due at once, not at the cached end', async () => {
    const crmWaits = new FakeCrmWaitRepository();
    const parkedChanges = new FakeParkedChangeRepository();
    const waits = new CrmWaits(asRepositories({ crmWaits, parkedChanges }), () => NOW);
    await crmWaits.set(tenant.portalId, lease); // a resume holds the portal: its lease is what the cache reads
    const waiting = await waits.check(tenant.portalId).catch((error: unknown) => error);
    const [held] = await crmWaits.due(NOW + 60_000, 1);
    await crmWaits.clear(held); // the resume found nothing left and ended the wait

    expect(await waits.parkFor(group(), waiting, recordingLogger().logger)).toBe(true);

    expect(await parkedChanges.count(tenant.portalId)).toBe(1);
    expect((await crmWaits.due(NOW, 1)).map((due) => due.portalId)).toEqual([tenant.portalId]);
  });

  it('when a change is parked under a cached wait that still holds, then the wait keeps its end', async () => {
    const crmWaits = new FakeCrmWaitRepository();
    const parkedChanges = new FakeParkedChangeRepository();
    const waits = new CrmWaits(asRepositories({ crmWaits, parkedChanges }), () => NOW);
    await crmWaits.set(tenant.portalId, lease);
    const waiting = await waits.check(tenant.portalId).catch((error: unknown) => error);

    await waits.parkFor(group(), waiting, recordingLogger().logger);

    expect((await crmWaits.find(tenant.portalId))?.until).toBe(NOW + 60_000);
  });
});
