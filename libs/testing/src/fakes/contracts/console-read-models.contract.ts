import type { ObjectScope, Tenant } from '@ecomm-sync/contracts';
import type {
  ConsoleActivityRepository,
  ConsoleOverviewRepository,
  ConsoleReportRepository,
  ObjectStateRepository,
  ObjectSyncRepository,
  RawMessageRepository,
  StoreRepository,
  SyncErrorRepository,
  WaitingObjectRepository,
} from '@ecomm-sync/data-access';
import { emptyObjectState } from '@ecomm-sync/domain';
import { aMappedChange, aSyncBatch } from '../../support';
import { anAppTenant } from '../builders';
import { counts, facts } from './console-counts';
import type { PublicOf } from '../public-of';

/** The console's read models and the repositories that write what they read. */
export interface ConsoleReadModels {
  consoleOverview: PublicOf<ConsoleOverviewRepository>;
  consoleReport: PublicOf<ConsoleReportRepository>;
  consoleActivity: PublicOf<ConsoleActivityRepository>;
  objectStates: PublicOf<ObjectStateRepository>;
  objectSyncs: PublicOf<ObjectSyncRepository>;
  syncErrors: PublicOf<SyncErrorRepository>;
  waitingObjects: PublicOf<WaitingObjectRepository>;
  stores: PublicOf<StoreRepository>;
  rawMessages: PublicOf<RawMessageRepository>;
}

const byKey = <T extends { portalId: number; appId: string | null; storeId: string; objectType?: string; type?: string }>(rows: T[]) =>
  [...rows].sort((a, b) => `${a.appId}|${a.storeId}|${a.objectType ?? a.type}`.localeCompare(`${b.appId}|${b.storeId}|${b.objectType ?? b.type}`));

/** What the console's pages rely on from its read models, written through the other repositories; run against the fakes and the real ones. */
/** A time within the window of the seed's waiting line item (waiting from 1, for 1,000 ms). */
const WITHIN_WINDOW = 500;

export function describeConsoleReadModelsContract(name: string, make: () => ConsoleReadModels | Promise<ConsoleReadModels>): void {
  describe(`console read models contract: ${name}`, () => {
    let models: ConsoleReadModels;
    let app: Tenant & { appId: string };
    let direct: Tenant;
    beforeEach(async () => {
      models = await make();
      app = anAppTenant();
      direct = { portalId: app.portalId, appId: null };
    });

    const received = (scope: ObjectScope, ids: string[]) =>
      models.objectStates.insertNew(
        scope,
        ids.map((externalObjectId) => ({ externalObjectId, state: emptyObjectState() })),
      );
    const processed = async (scope: ObjectScope, id: string, at: number, link: { crmId: number | null; archived?: boolean }) => {
      const seen = await models.objectSyncs.findMany(scope, [id]);
      const claim = await models.objectSyncs.claim(scope, seen, [id], () => true);
      const rev = (seen.get(id)?.appliedRev ?? 0) + 1;
      await models.objectSyncs.recordProcessed(
        scope,
        [
          {
            externalObjectId: id,
            rev,
            settingsRev: 1,
            processedAt: at,
            changedAt: at,
            link: { crmId: link.crmId, generation: 0, archived: link.archived ?? false },
          },
        ],
        claim,
      );
    };
    const erred = (scope: ObjectScope, id: string, type: 'UNKNOWN_ERROR' | 'INVALID_EMAIL_ADDRESS') =>
      models.syncErrors.record(scope, [{ externalObjectId: id, rev: 1, settingsRev: 1, type, details: 'wrong', changedAt: 1, erroredAt: 2 }]);

    /** The application's contacts: a applied, b processed without a link and two open errors, c received only; a line item waits in store eu. The portal's own deal x is applied. */
    const seed = async () => {
      const contacts: ObjectScope = { tenant: app, storeId: 'default', objectType: 'CONTACT' };
      const directDeals: ObjectScope = { tenant: direct, storeId: 'default', objectType: 'DEAL' };
      await received(contacts, ['a', 'b', 'c']);
      await processed(contacts, 'a', 1_000, { crmId: 11 });
      await processed(contacts, 'b', 3_000, { crmId: null });
      await erred(contacts, 'b', 'INVALID_EMAIL_ADDRESS');
      await erred(contacts, 'b', 'UNKNOWN_ERROR');
      await erred(contacts, 'c', 'UNKNOWN_ERROR');
      await models.syncErrors.resolve(contacts, ['c'], 5);
      await models.waitingObjects.wait(
        { tenant: app, storeId: 'eu', objectType: 'LINE_ITEM' },
        [{ change: aMappedChange({ externalObjectId: 'li' }), waitingFor: ['DEAL:d'] }],
        1,
        1_000,
      );
      await received(directDeals, ['x']);
      await processed(directDeals, 'x', 2_000, { crmId: 21 });
      await models.stores.upsert(app, { id: 'eu', label: 'Europe' });
      await models.stores.upsert(direct, { id: 'default', label: 'Custom' });
    };

    it('when a portal reads its object counts, then each tenant, store and type has what was received, processed, linked, erred and waits', async () => {
      await seed();
      expect(byKey(await models.consoleOverview.objectCounts({ portalId: app.portalId }, WITHIN_WINDOW))).toEqual(
        byKey([
          counts(app, 'default', 'CONTACT', {
            received: 3,
            processed: 2,
            inCrm: 1,
            withOpenErrors: 1,
            lastProcessedAt: 3_000,
            flagged: [facts({ openError: true, processed: true })],
          }),
          counts(app, 'eu', 'LINE_ITEM', { waiting: 1, flagged: [facts({ waiting: true })] }),
          counts(direct, 'default', 'DEAL', { received: 1, processed: 1, inCrm: 1, lastProcessedAt: 2_000 }),
        ]),
      );
    });

    it('when a waiting change was applied and waits only to associate, or its window ended, then its object is not counted waiting', async () => {
      const lineItems: ObjectScope = { tenant: app, storeId: 'eu', objectType: 'LINE_ITEM' };
      await models.waitingObjects.wait(lineItems, [{ change: aMappedChange({ externalObjectId: 'waits' }), waitingFor: ['DEAL:d'] }], 1, 1_000);
      await models.waitingObjects.wait(lineItems, [{ change: aMappedChange({ externalObjectId: 'applied' }), waitingFor: ['DEAL:d'] }], 1, 1_000, {
        reapply: true,
      });
      const waitingAt = async (now: number) =>
        (await models.consoleOverview.objectCounts({ portalId: app.portalId }, now)).find((row) => row.objectType === 'LINE_ITEM')?.waiting ?? 0;
      expect(await waitingAt(WITHIN_WINDOW)).toBe(1);
      expect(await waitingAt(1_001)).toBe(0);
    });

    it('when a delete was applied and a linked object fails a later change, then the deleted one is counted apart and the failed one carries its link', async () => {
      const products: ObjectScope = { tenant: direct, storeId: 'default', objectType: 'PRODUCT' };
      await received(products, ['gone', 'broken']);
      await processed(products, 'gone', 1_000, { crmId: 31, archived: true });
      await processed(products, 'broken', 2_000, { crmId: 32 });
      await erred(products, 'broken', 'UNKNOWN_ERROR');
      const [row] = (await models.consoleOverview.objectCounts({ portalId: direct.portalId, appId: null }, WITHIN_WINDOW)).filter(
        (one) => one.objectType === 'PRODUCT',
      );
      expect(row).toEqual(
        counts(direct, 'default', 'PRODUCT', {
          received: 2,
          processed: 2,
          inCrm: 1,
          archivedInCrm: 1,
          withOpenErrors: 1,
          lastProcessedAt: 2_000,
          flagged: [facts({ openError: true, processed: true, crmId: 32 })],
        }),
      );
    });

    it('when the scope is one tenant or one application, then only its counts come', async () => {
      await seed();
      expect((await models.consoleOverview.objectCounts({ portalId: app.portalId, appId: null }, WITHIN_WINDOW)).map((row) => row.objectType)).toEqual([
        'DEAL',
      ]);
      expect(
        (await models.consoleOverview.objectCounts({ appId: app.appId, portalIds: [app.portalId] }, WITHIN_WINDOW)).map((row) => row.objectType).sort(),
      ).toEqual(['CONTACT', 'LINE_ITEM']);
    });

    it('when an application-wide scope leaves a portal out, then nothing of that portal comes', async () => {
      await seed();
      expect(await models.consoleOverview.objectCounts({ appId: app.appId, portalIds: [app.portalId + 1] }, WITHIN_WINDOW)).toEqual([]);
      expect(await models.consoleOverview.openErrorsByType({ appId: app.appId, portalIds: [] })).toEqual([]);
      expect(await models.consoleOverview.storeLabels({ appId: app.appId, portalIds: [app.portalId + 1] })).toEqual([]);
      await expect(models.consoleOverview.objectCounts({ appId: app.appId }, WITHIN_WINDOW)).rejects.toThrow(
        'an application-wide console read needs the portals it may read',
      );
    });

    it('when open errors are counted by type, then resolved ones are left out', async () => {
      await seed();
      expect(byKey(await models.consoleOverview.openErrorsByType({ portalId: app.portalId }))).toEqual([
        { portalId: app.portalId, appId: app.appId, storeId: 'default', type: 'INVALID_EMAIL_ADDRESS', count: 1 },
        { portalId: app.portalId, appId: app.appId, storeId: 'default', type: 'UNKNOWN_ERROR', count: 1 },
      ]);
    });

    it("when store labels are read, then the scope's stores come with their labels", async () => {
      await seed();
      expect(byKey(await models.consoleOverview.storeLabels({ portalId: app.portalId }))).toEqual(
        byKey([
          { portalId: app.portalId, appId: app.appId, storeId: 'eu', label: 'Europe' },
          { portalId: app.portalId, appId: null, storeId: 'default', label: 'Custom' },
        ]),
      );
      expect(await models.consoleOverview.storeLabels({ portalId: app.portalId, appId: null })).toEqual([
        { portalId: app.portalId, appId: null, storeId: 'default', label: 'Custom' },
      ]);
    });

    it('when a console read has neither a portal nor an application, then it is refused', async () => {
      await expect(models.consoleOverview.objectCounts({}, WITHIN_WINDOW)).rejects.toThrow(/needs a portal or an application/);
      await expect(models.consoleActivity.times({}, 0, 10)).rejects.toThrow(/needs a portal or an application/);
    });

    it("when a store's CRM ids are read, then its live linked objects come in CRM id order, at most the limit, saying whether there are more", async () => {
      const webDeals: ObjectScope = { tenant: app, storeId: 'web', objectType: 'DEAL' };
      for (const [id, crmId] of [
        ['d3', 303],
        ['d1', 101],
        ['d2', 202],
      ] as const)
        await processed(webDeals, id, 1, { crmId });
      await processed(webDeals, 'gone', 1, { crmId: 50, archived: true });
      await processed(webDeals, 'unlinked', 1, { crmId: null });
      await processed({ ...webDeals, tenant: direct }, 'other-tenant', 1, { crmId: 1 });

      expect(await models.consoleReport.crmIds(webDeals, 10)).toEqual({ ids: [101, 202, 303], more: false });
      expect(await models.consoleReport.crmIds(webDeals, 2)).toEqual({ ids: [101, 202], more: true });
      expect(await models.consoleReport.crmIds({ ...webDeals, objectType: 'LINE_ITEM' }, 10)).toEqual({ ids: [], more: false });
    });

    it('when activity is read, then receive and apply times since the moment come, in scope, saying whether the limit cut them', async () => {
      const batch = (tenant: Tenant, receivedAt: number, count: number) =>
        models.rawMessages.append(
          aSyncBatch({
            tenant,
            receivedAt,
            messages: Array.from({ length: count }, (_, i) => ({
              externalObjectId: `m${receivedAt}-${i}`,
              action: 'UPSERT' as const,
              changedAt: 1,
              properties: {},
            })),
          }),
        );
      await batch(app, 500, 1);
      await batch(app, 1_500, 2);
      await batch(direct, 1_600, 1);
      const contacts: ObjectScope = { tenant: app, storeId: 'default', objectType: 'CONTACT' };
      await processed(contacts, 'p1', 900, { crmId: 1 });
      await processed(contacts, 'p2', 1_700, { crmId: 2 });
      // Not applies: a processing that failed (no CRM object, or an open error), and a delete.
      await processed(contacts, 'p3', 1_800, { crmId: null });
      await processed(contacts, 'p4', 1_800, { crmId: 4 });
      await erred(contacts, 'p4', 'UNKNOWN_ERROR');
      await processed(contacts, 'p5', 1_800, { crmId: 5, archived: true });

      const { received, applied, more } = await models.consoleActivity.times({ appId: app.appId, portalIds: [app.portalId] }, 1_000, 10);
      expect([received.sort(), applied, more]).toEqual([[1_500, 1_500], [1_700], false]);
      expect((await models.consoleActivity.times({ portalId: app.portalId }, 1_000, 10)).received.sort()).toEqual([1_500, 1_500, 1_600]);
      expect((await models.consoleActivity.times({ portalId: app.portalId }, 1_000, 2)).more).toBe(true);
    });
  });
}
