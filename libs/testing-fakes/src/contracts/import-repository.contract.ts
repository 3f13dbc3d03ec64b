import type { ImportRecord, ImportRepository } from '@ecomm-sync/data-access';
import { aNewImport, anAppTenant, anImportTypeState } from '../builders';
import type { PublicOf } from '../public-of';

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
    const complete = async (record: ImportRecord, now: number) => {
      for (const type of Object.keys(record.types) as (keyof ImportRecord['types'])[]) await imports.end(record.importId, type, { pageCount: 0, itemCount: 0 });
      expect(await imports.completeIfEnded(record.importId, now)).toBe(true);
    };

    it('when an import is created, then it is found by id and by tenant, store and start, nothing failed, completed or released', async () => {
      const input = aNewImport();
      const record = await imports.create(input);
      expect(record).toEqual({
        ...input,
        importId: expect.stringMatching(/^[0-9a-f]{24}$/),
        failureReason: null,
        completedAt: null,
        releasedThrough: null,
        releasedAt: null,
      });
      expect(await imports.findById(record!.importId)).toEqual(record);
      expect(await imports.find(input.tenant, input.storeId, input.importStartedAt)).toEqual(record);
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

    it('when pages arrive, then the import is receiving, a page sent again replaces it, and the counts are of pages and items', async () => {
      const record = await created();
      await imports.putPage(record.importId, 'CONTACT', 1, items(3));
      await imports.putPage(record.importId, 'CONTACT', 2, items(2));
      await imports.putPage(record.importId, 'CONTACT', 1, items(4, 'again'));
      expect((await imports.findById(record.importId))!.status).toBe('receiving');
      expect(await imports.received(record.importId, 'CONTACT')).toEqual({ pageCount: 2, itemCount: 6 });
      expect(await imports.received(record.importId, 'DEAL')).toEqual({ pageCount: 0, itemCount: 0 });
      expect(await imports.getPage(record.importId, 'CONTACT', 1)).toEqual(items(4, 'again'));
      expect(await imports.getPage(record.importId, 'CONTACT', 3)).toBeNull();
    });

    it('when pages are read for the release, then they come in page order after the given page, at most the limit', async () => {
      const record = await created();
      for (const page of [5, 1, 3, 2, 4]) await imports.putPage(record.importId, 'DEAL', page, items(1, `p${page}`));
      const pages = await imports.pagesOf(record.importId, 'DEAL', 1, 3);
      expect(pages).toEqual([2, 3, 4].map((pageNumber) => ({ pageNumber, messages: items(1, `p${pageNumber}`) })));
      expect(await imports.pagesOf(record.importId, 'DEAL', 5, 3)).toEqual([]);
    });

    it('when an object type ends, then it ends once with its counts, and a type not imported never ends', async () => {
      const record = await created({ types: { CONTACT: anImportTypeState('CONTACT') } });
      expect(await imports.end(record.importId, 'CONTACT', { pageCount: 2, itemCount: 7 })).toBe(true);
      expect(await imports.end(record.importId, 'CONTACT', { pageCount: 2, itemCount: 7 })).toBe(false);
      expect(await imports.end(record.importId, 'DEAL', { pageCount: 0, itemCount: 0 })).toBe(false);
      expect((await imports.findById(record.importId))!.types).toEqual({ CONTACT: anImportTypeState('CONTACT', { ended: true, pageCount: 2, itemCount: 7 }) });
    });

    it('when every type ended, then exactly one completeIfEnded completes the import, and not before', async () => {
      const record = await created({ types: { CONTACT: anImportTypeState('CONTACT'), DEAL: anImportTypeState('DEAL') } });
      await imports.end(record.importId, 'CONTACT', { pageCount: 0, itemCount: 0 });
      expect(await imports.completeIfEnded(record.importId, 10)).toBe(false);
      await imports.end(record.importId, 'DEAL', { pageCount: 0, itemCount: 0 });
      expect(await imports.completeIfEnded(record.importId, 20)).toBe(true);
      expect(await imports.completeIfEnded(record.importId, 30)).toBe(false);
      expect(await imports.findById(record.importId)).toMatchObject({ status: 'complete', completedAt: 20 });
    });

    it.each([
      ['initialized', 'failed'],
      ['receiving', 'failed'],
      ['complete', 'complete'],
      ['failed', 'failed'],
    ] as const)('when an import that is %s fails, then it is %s', async (before, after) => {
      const record = await created();
      if (before === 'receiving') await imports.putPage(record.importId, 'CONTACT', 1, items(1));
      if (before === 'complete') await complete(record, 1);
      if (before === 'failed') await imports.fail(record.importId, 'first reason');
      await imports.fail(record.importId, 'the receiver did not answer');
      const found = (await imports.findById(record.importId))!;
      expect(found.status).toBe(after);
      expect(found.failureReason).toBe(
        { initialized: 'the receiver did not answer', receiving: 'the receiver did not answer', complete: null, failed: 'first reason' }[before],
      );
    });

    it('when the webhook answered, then the expected counts are set per type and the rest of each type stays', async () => {
      const record = await created();
      await imports.setExpectedCounts(record.importId, { CONTACT: 10, DEAL: null });
      const { types } = (await imports.findById(record.importId))!;
      expect(types.CONTACT).toEqual(anImportTypeState('CONTACT', { expectedCount: 10 }));
      expect(types.DEAL).toEqual(anImportTypeState('DEAL', { expectedCount: null }));
    });

    it('when a complete import is released in steps, then it is unreleased until the last step, which marks it released', async () => {
      const record = await created();
      await complete(record, 1_000);
      const mine = async (before: number) => (await imports.unreleased(before, 1_000)).filter((found) => found.importId === record.importId);
      expect(await mine(999)).toEqual([]);
      expect(await mine(1_000)).toHaveLength(1);
      await imports.markReleased(record.importId, 'CONTACT:3', false, 2_000);
      expect(await mine(1_000)).toEqual([expect.objectContaining({ releasedThrough: 'CONTACT:3', releasedAt: null })]);
      await imports.markReleased(record.importId, 'LINE_ITEM:done', true, 3_000);
      expect(await mine(1_000)).toEqual([]);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: 'LINE_ITEM:done', releasedAt: 3_000 });
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
