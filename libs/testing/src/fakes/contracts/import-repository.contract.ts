import type { ImportRecord, ImportRepository } from '@ecomm-sync/data-access';
import { receivedCounts } from '@ecomm-sync/domain';
import { aNewImport, anAppTenant, anImportTypeState } from '../builders';
import type { PublicOf } from '../public-of';
import { moveImport } from '../repositories/fake-import.repository';

type Imports = PublicOf<ImportRepository>;
const items = (count: number, prefix = 'item') => Array.from({ length: count }, (_, i) => ({ externalObjectId: `${prefix}-${i}`, properties: { n: i } }));

/**
 * What the use cases rely on from ImportRepository, run against the fake (unit) and against the
 * real repository on the MongoDB-wire server (integration), so that the two cannot drift apart.
 * `make` may hand out one repository for all tests: every test makes its own tenant.
 */
export function describeImportRepositoryContract(name: string, make: () => Imports | Promise<Imports>): void {
  describe(`ImportRepository contract: ${name}`, () => {
    let imports: Imports;
    beforeEach(async () => {
      imports = await make();
    });
    const created = async (overrides: Parameters<typeof aNewImport>[0] = {}): Promise<ImportRecord> => (await imports.create(aNewImport(overrides)))!;

    it('when an import is created, then it is found by id and by tenant, store and start, nothing failed, completed or released', async () => {
      const input = aNewImport();
      const record = await imports.create(input);
      expect(record).toEqual({
        ...input,
        importId: expect.stringMatching(/^[0-9a-f]{24}$/),
        failureReason: null,
        failedAt: null,
        completedAt: null,
        releasedThrough: null,
        releasedAt: null,
        releaseProgressAt: null,
        releaseOwner: null,
        webhookRequestedAt: null,
        webhookProblem: null,
        releaseProblem: null,
        rev: 0,
      });
      expect(await imports.findById(record!.importId)).toEqual(record);
      expect(await imports.find(input.tenant, input.storeId, input.importStartedAt)).toEqual(record);
    });

    it('when an import fails, then it keeps when', async () => {
      const record = (await imports.create(aNewImport()))!;
      const failed = { ...record, status: 'failed' as const, failureReason: 'the receiver did not answer', failedAt: 5_678 };
      expect(await imports.compareAndSet(record.importId, record.rev, failed)).toBe(true);
      expect(await imports.findById(record.importId)).toMatchObject({ status: 'failed', failedAt: 5_678, rev: 1 });
    });

    it('when the webhook of an import is marked queued, and a problem of it recorded later, then the import keeps both', async () => {
      const record = (await imports.create(aNewImport()))!;
      expect(await imports.compareAndSet(record.importId, record.rev, { ...record, webhookRequestedAt: 1_234 })).toBe(true);
      expect(await imports.findById(record.importId)).toMatchObject({ status: 'initialized', webhookRequestedAt: 1_234, rev: 1 });
      const problem = { reason: 'the receiver did not answer', at: 2_345 };
      expect(await imports.compareAndSet(record.importId, 1, { ...record, status: 'receiving', webhookRequestedAt: 1_234, webhookProblem: problem })).toBe(
        true,
      );
      expect(await imports.findById(record.importId)).toMatchObject({ status: 'receiving', webhookProblem: problem, rev: 2 });
    });

    it('when a second import of the same tenant, store and instant is created, then it is refused with null; another tenant may start at that instant', async () => {
      const first = aNewImport();
      await imports.create(first);
      expect(await imports.create({ ...first })).toBeNull();
      expect(await imports.create({ ...first, tenant: anAppTenant() })).not.toBeNull();
      expect(await imports.create({ ...first, storeId: 'other' })).not.toBeNull();
    });

    it.each([
      ['not an id', 'nope'],
      ['an id of nothing', 'ffffffffffffffffffffffff'],
    ])('when the id is %s, then nothing is found', async (_case, importId) => {
      expect(await imports.findById(importId)).toBeNull();
    });

    it('when a record read is changed by its reader, then what is stored stays as it was', async () => {
      const record = await created();
      record.status = 'failed';
      record.types.CONTACT!.ended = true;
      expect(await imports.findById(record.importId)).toMatchObject({ status: 'initialized', types: { CONTACT: { ended: false } } });
    });

    it('when the state read is written with its revision, then it lands, the revision goes up, and only the state changes', async () => {
      const record = await created();
      const next = {
        ...record,
        storeId: 'elsewhere',
        status: 'receiving' as const,
        types: { ...record.types, CONTACT: anImportTypeState('CONTACT', { pageItems: { 1: 3 } }) },
      };
      expect(await imports.compareAndSet(record.importId, record.rev, next)).toBe(true);
      expect(await imports.findById(record.importId)).toEqual({ ...record, status: 'receiving', types: next.types, rev: record.rev + 1 });
    });

    it('when two writers write from the same read, then only the first lands, and a revision or id that is not stored writes nothing', async () => {
      const record = await created();
      expect(await imports.compareAndSet(record.importId, record.rev, { ...record, failureReason: 'first' })).toBe(true);
      expect(await imports.compareAndSet(record.importId, record.rev, { ...record, failureReason: 'second' })).toBe(false);
      expect(await imports.compareAndSet(record.importId, record.rev + 5, { ...record, failureReason: 'third' })).toBe(false);
      expect(await imports.compareAndSet('ffffffffffffffffffffffff', 0, record)).toBe(false);
      expect(await imports.compareAndSet('nope', 0, record)).toBe(false);
      expect(await imports.findById(record.importId)).toMatchObject({ failureReason: 'first', rev: record.rev + 1 });
    });

    it('when many page receipts race, each deciding again on a fresh read when its write lost, then every page is counted', async () => {
      const record = await created();
      const pageNumbers = Array.from({ length: 12 }, (_, i) => i + 1);

      await Promise.all(
        pageNumbers.map((pageNumber) => moveImport(imports, record.importId, { kind: 'page-received', objectType: 'DEAL', pageNumber, itemCount: pageNumber })),
      );

      const found = (await imports.findById(record.importId))!;
      expect(receivedCounts(found.types.DEAL!)).toEqual({ pageCount: 12, itemCount: 78 });
      expect(found.rev).toBe(12);
    });

    it('when pages are stored, then a page sent again replaces it, and the import itself is not changed', async () => {
      const record = await created();
      await imports.putPage(record.importId, 'CONTACT', 1, items(3));
      await imports.putPage(record.importId, 'CONTACT', 2, items(2));
      await imports.putPage(record.importId, 'CONTACT', 1, items(4, 'again'));
      expect(await imports.findById(record.importId)).toEqual(record);
      expect(await imports.getPage(record.importId, 'CONTACT', 1)).toEqual(items(4, 'again'));
      expect(await imports.getPage(record.importId, 'CONTACT', 2)).toEqual(items(2));
      expect(await imports.getPage(record.importId, 'CONTACT', 3)).toBeNull();
      expect(await imports.getPage(record.importId, 'DEAL', 1)).toBeNull();
    });

    it('when a page names properties MongoDB keys may not hold ($, dots, __proto__), then it is stored and read back as sent', async () => {
      const record = await created();
      const properties = Object.fromEntries([
        ['$email', 'ada@example.com'],
        ['a.b', 'dotted'],
        ['__proto__', 'own'],
        ['plain', null],
      ]);
      const page = [{ externalObjectId: 'odd-names', properties }];
      await imports.putPage(record.importId, 'CONTACT', 1, page);
      expect(await imports.getPage(record.importId, 'CONTACT', 1)).toEqual(page);
      expect((await imports.pagesOf(record.importId, 'CONTACT', 0, 1))[0].messages[0].properties).toEqual(properties);
      expect(Object.keys((await imports.getPage(record.importId, 'CONTACT', 1))![0].properties)).toEqual(['$email', 'a.b', '__proto__', 'plain']);
    });

    it('when pages are read for the release, then they come in page order after the given page, at most the limit', async () => {
      const record = await created();
      for (const page of [5, 1, 3, 2, 4]) await imports.putPage(record.importId, 'DEAL', page, items(1, `p${page}`));
      const pages = await imports.pagesOf(record.importId, 'DEAL', 1, 3);
      expect(pages).toEqual([2, 3, 4].map((pageNumber) => ({ pageNumber, messages: items(1, `p${pageNumber}`) })));
      expect(await imports.pagesOf(record.importId, 'DEAL', 5, 3)).toEqual([]);
    });

    it("when a portal's imports are listed, then they come newest first, paged, with their state, and only those within the scope", async () => {
      const tenant = anAppTenant();
      const other = anAppTenant({ portalId: tenant.portalId });
      const [older, newer, otherStore] = [
        await created({ tenant, importStartedAt: 1_000 }),
        await created({ tenant, importStartedAt: 3_000 }),
        await created({ tenant, storeId: 'eu', importStartedAt: 2_000 }),
      ];
      const othersImport = await created({ tenant: other, importStartedAt: 4_000 });
      await created({ importStartedAt: 5_000 }); // another portal's
      await moveImport(imports, newer.importId, { kind: 'page-received', objectType: 'DEAL', pageNumber: 1, itemCount: 4 });
      const ids = (page: { imports: ImportRecord[] }) => page.imports.map((found) => found.importId);

      const portalWide = await imports.list({ portalId: tenant.portalId }, { offset: 0, limit: 10 });
      expect(ids(portalWide)).toEqual([othersImport.importId, newer.importId, otherStore.importId, older.importId]);
      expect(portalWide.hasMore).toBe(false);
      expect(portalWide.imports[1]).toEqual({
        ...newer,
        status: 'receiving',
        types: expect.objectContaining({ DEAL: expect.objectContaining({ pageItems: { 1: 4 } }) }),
        rev: 1,
      });

      const first = await imports.list({ portalId: tenant.portalId, appId: tenant.appId }, { offset: 0, limit: 2 });
      expect([ids(first), first.hasMore]).toEqual([[newer.importId, otherStore.importId], true]);
      const second = await imports.list({ portalId: tenant.portalId, appId: tenant.appId }, { offset: 2, limit: 2 });
      expect([ids(second), second.hasMore]).toEqual([[older.importId], false]);
      expect(await imports.list({ portalId: tenant.portalId, appId: null }, { offset: 0, limit: 10 })).toEqual({ imports: [], hasMore: false });
      expect(ids(await imports.list({ appId: other.appId, portalIds: [tenant.portalId] }, { offset: 0, limit: 10 }))).toEqual([othersImport.importId]);
    });

    it('when webhook attempts are recorded, then they are listed per request in attempt order', async () => {
      const requestId = (await created()).importId;
      const attempt = (n: number) => ({
        attempt: n,
        at: 100 * n,
        url: 'https://shop.example.com/import',
        status: n === 2 ? 200 : null,
        error: n === 2 ? null : 'timeout',
        durationMs: 5,
      });
      await imports.recordAttempt(requestId, attempt(2));
      await imports.recordAttempt(requestId, attempt(1));
      expect(await imports.attemptsOf(requestId)).toEqual([attempt(1), attempt(2)]);
      expect(await imports.attemptsOf((await created()).importId)).toEqual([]);
    });
  });
}
