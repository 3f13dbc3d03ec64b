import type { NewSyncError, SyncErrorRepository } from '@ecomm-sync/data-access';
import { anAppTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Errors = PublicOf<SyncErrorRepository>;

const anError = (overrides: Partial<NewSyncError> = {}): NewSyncError => ({
  externalObjectId: 'c-1',
  rev: 1,
  settingsRev: 1,
  type: 'MISSING_REQUIRED_PROPERTY',
  details: 'not an e-mail address',
  changedAt: 100,
  erroredAt: 200,
  ...overrides,
});

/** What the use cases rely on from SyncErrorRepository; run against the fake and the real one. */
export function describeSyncErrorRepositoryContract(name: string, make: () => Errors | Promise<Errors>): void {
  describe(`SyncErrorRepository contract: ${name}`, () => {
    let errors: Errors;
    beforeEach(async () => {
      errors = await make();
    });

    it('when an error is recorded twice for one revision, then the object has it once, open, newest first with its others', async () => {
      const tenant = anAppTenant();
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        anError(),
        anError({ type: 'UNKNOWN_ERROR', details: 'later', erroredAt: 300 }),
      ]);
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ details: 'again' })]);
      const key = { ...tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c-1' };
      expect(await errors.listForObject(key, false)).toEqual([
        { ...key, type: 'UNKNOWN_ERROR', details: 'later', changedAt: 100, erroredAt: 300, status: 'OPEN' },
        { ...key, type: 'MISSING_REQUIRED_PROPERTY', details: 'not an e-mail address', changedAt: 100, erroredAt: 200, status: 'OPEN' },
      ]);
      expect(await errors.listForObject({ ...key, storeId: 'eu' }, true)).toEqual([]);
    });

    it('when a resolved error is recorded again to reopen it, then it is open with the new details; without reopen it stays resolved', async () => {
      const scope = { tenant: anAppTenant(), storeId: 'default', objectType: 'CONTACT' as const };
      const key = { ...scope.tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c-1' };
      await errors.record(scope, [anError()]);
      await errors.resolve(scope, ['c-1'], 250);
      await errors.record(scope, [anError({ details: 'ignored' })]);
      expect(await errors.listForObject(key, false)).toEqual([]);

      await errors.record(scope, [anError({ details: 'set aside again', erroredAt: 400 })], { reopen: true });

      expect(await errors.listForObject(key, true)).toEqual([
        { ...key, type: 'MISSING_REQUIRED_PROPERTY', details: 'set aside again', changedAt: 100, erroredAt: 400, status: 'OPEN' },
      ]);
    });

    it('when an object has more errors than a page, then its listing answers the newest 200 unless told, and pages on with offset and limit', async () => {
      const scope = { tenant: anAppTenant(), storeId: 'default', objectType: 'CONTACT' as const };
      const key = { ...scope.tenant, ...scope, externalObjectId: 'c-1' };
      for (let rev = 1; rev <= 205; rev++) await errors.record(scope, [anError({ rev, erroredAt: 1_000 + rev })]);

      const first = await errors.listForObject(key, true);
      expect(first.map((error) => error.erroredAt)).toEqual(Array.from({ length: 200 }, (_, i) => 1_205 - i));
      expect((await errors.listForObject(key, true, { offset: 200, limit: 200 })).map((error) => error.erroredAt)).toEqual([1_005, 1_004, 1_003, 1_002, 1_001]);
      expect((await errors.listForObject(key, true, { offset: 1, limit: 2 })).map((error) => error.erroredAt)).toEqual([1_204, 1_203]);
    });

    it("when a newer revision errs, then the older revision's open errors are resolved", async () => {
      const tenant = anAppTenant();
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ rev: 1 })]);
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ rev: 2, erroredAt: 300 })]);
      const key = { ...tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c-1' };
      expect((await errors.listForObject(key, true)).map((error) => [error.erroredAt, error.status])).toEqual([
        [300, 'OPEN'],
        [200, 'RESOLVED'],
      ]);
    });

    it('when objects are resolved, then only their open errors close, in their own tenant, store and type', async () => {
      const tenant = anAppTenant();
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ externalObjectId: 'a' }), anError({ externalObjectId: 'b' })]);
      await errors.resolve({ tenant, storeId: 'default', objectType: 'DEAL' }, ['a'], 500);
      await errors.resolve({ tenant: { ...tenant, appId: null }, storeId: 'default', objectType: 'CONTACT' }, ['a'], 500);
      await errors.resolve({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['a'], 500);
      const of = async (externalObjectId: string) =>
        (await errors.listForObject({ ...tenant, storeId: 'default', objectType: 'CONTACT', externalObjectId }, true)).map((error) => error.status);
      expect([await of('a'), await of('b')]).toEqual([['RESOLVED'], ['OPEN']]);
    });

    it("when a store's errors are resolved, then every open one of that store closes, set-aside ones too, and no other store's or tenant's", async () => {
      const tenant = anAppTenant();
      await errors.record({ tenant, storeId: 'gone', objectType: 'CONTACT' }, [
        anError({ externalObjectId: 'a' }),
        anError({ externalObjectId: 'b', setAsideBatchId: 'x' }),
      ]);
      await errors.record({ tenant, storeId: 'gone', objectType: 'DEAL' }, [anError({ externalObjectId: 'd' })]);
      await errors.record({ tenant, storeId: 'kept', objectType: 'CONTACT' }, [anError({ externalObjectId: 'a' })]);
      await errors.record({ tenant: { ...tenant, appId: null }, storeId: 'gone', objectType: 'CONTACT' }, [anError({ externalObjectId: 'a' })]);

      expect(await errors.resolveStore(tenant, 'gone', 500)).toBe(3);

      const status = async (owner: typeof tenant | { portalId: number; appId: null }, storeId: string, objectType: 'CONTACT' | 'DEAL', id: string) =>
        (await errors.listForObject({ ...owner, storeId, objectType, externalObjectId: id }, true)).map((error) => error.status);
      expect([await status(tenant, 'gone', 'CONTACT', 'a'), await status(tenant, 'gone', 'CONTACT', 'b'), await status(tenant, 'gone', 'DEAL', 'd')]).toEqual([
        ['RESOLVED'],
        ['RESOLVED'],
        ['RESOLVED'],
      ]);
      expect([await status(tenant, 'kept', 'CONTACT', 'a'), await status({ ...tenant, appId: null }, 'gone', 'CONTACT', 'a')]).toEqual([['OPEN'], ['OPEN']]);
    });

    describe('a batch set aside before it was merged', () => {
      const scope = () => ({ tenant: anAppTenant(), storeId: 'default', objectType: 'CONTACT' as const });
      const setAside = (batchId: string) =>
        anError({ rev: 0, settingsRev: 0, type: 'UNKNOWN_ERROR', details: `${batchId} set aside`, erroredAt: 300, setAsideBatchId: batchId });
      const statuses = async (errors: Errors, { tenant }: ReturnType<typeof scope>) =>
        (await errors.listForObject({ ...tenant, storeId: 'default', objectType: 'CONTACT', externalObjectId: 'c-1' }, true))
          .map((error) => `${error.details}: ${error.status}`)
          .sort();

      it('when it is recorded without resolving others, then the object’s open errors stay open beside it', async () => {
        const object = scope();
        await errors.record(object, [anError()]);
        await errors.record(object, [setAside('b-1')], { reopen: true, resolveOthers: false });
        expect(await statuses(errors, object)).toEqual(['b-1 set aside: OPEN', 'not an e-mail address: OPEN']);
      });

      it('when errors are listed by whether they wait for a set-aside batch, then each listing has its own, the set-aside one with its batch id', async () => {
        const object = scope();
        await errors.record(object, [anError()]);
        await errors.record(object, [setAside('b-1')], { reopen: true, resolveOthers: false });
        const listed = async (setAsideOnly?: boolean) =>
          (
            await errors.list({
              portalId: object.tenant.portalId,
              appId: object.tenant.appId,
              includeResolved: false,
              setAside: setAsideOnly,
              limit: 10,
              offset: 0,
            })
          ).errors.map((error) => [error.details, error.setAsideBatchId ?? null]);
        expect(await listed(true)).toEqual([['b-1 set aside', 'b-1']]);
        expect(await listed(false)).toEqual([['not an e-mail address', null]]);
        expect(await listed()).toHaveLength(2);
      });

      it('when the object syncs or errs again, then its error stays open; when that batch is merged, it is resolved', async () => {
        const object = scope();
        await errors.record(object, [setAside('b-1')], { reopen: true, resolveOthers: false });
        await errors.record(object, [anError({ rev: 2, erroredAt: 400 })]);
        await errors.resolve(object, ['c-1'], 500);
        expect(await statuses(errors, object)).toEqual(['b-1 set aside: OPEN', 'not an e-mail address: RESOLVED']);

        await errors.resolveSetAside(object, 'b-2', ['c-1'], 600);
        await errors.resolveSetAside({ ...object, objectType: 'DEAL' }, 'b-1', ['c-1'], 600);
        expect(await statuses(errors, object)).toEqual(['b-1 set aside: OPEN', 'not an e-mail address: RESOLVED']);
        await errors.resolveSetAside(object, 'b-1', ['c-1'], 600);
        expect(await statuses(errors, object)).toEqual(['b-1 set aside: RESOLVED', 'not an e-mail address: RESOLVED']);
      });
    });

    it("when a portal's open errors of a type are paged, then each comes once in id order, a page goes on after the id given, and an application sees its own", async () => {
      const tenant = anAppTenant();
      const other = { ...tenant, appId: `${tenant.appId}-other` };
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ externalObjectId: 'a' })]);
      await errors.record({ tenant: other, storeId: 'default', objectType: 'CONTACT' }, [anError({ externalObjectId: 'b' })]);
      await errors.record({ tenant, storeId: 'eu', objectType: 'DEAL' }, [
        anError({ externalObjectId: 'c' }),
        anError({ externalObjectId: 'd', type: 'UNKNOWN_ERROR' }),
      ]);
      await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ externalObjectId: 'e' })]);
      await errors.resolve({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['e'], 500);
      const all = await errors.pageOpenOfType(tenant.portalId, undefined, 'MISSING_REQUIRED_PROPERTY', null, 10);
      expect(all.map((entry) => entry.key.externalObjectId).sort()).toEqual(['a', 'b', 'c']);
      expect(all.find((entry) => entry.key.externalObjectId === 'c')?.key).toEqual({ ...tenant, storeId: 'eu', objectType: 'DEAL', externalObjectId: 'c' });
      expect(
        (await errors.pageOpenOfType(tenant.portalId, tenant.appId, 'MISSING_REQUIRED_PROPERTY', null, 10)).map((entry) => entry.key.externalObjectId).sort(),
      ).toEqual(['a', 'c']);
      expect(await errors.pageOpenOfType(tenant.portalId, undefined, 'MISSING_REQUIRED_PROPERTY', all[0].id, 1)).toEqual([all[1]]);
      expect(await errors.pageOpenOfType(tenant.portalId, undefined, 'MISSING_REQUIRED_PROPERTY', all[2].id, 10)).toEqual([]);
    });

    describe('listings', () => {
      const seed = async () => {
        const tenant = anAppTenant();
        const direct = { portalId: tenant.portalId, appId: null };
        await errors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [anError({ externalObjectId: 'a', erroredAt: 100 })]);
        await errors.record({ tenant, storeId: 'eu', objectType: 'DEAL' }, [anError({ externalObjectId: 'b', type: 'UNKNOWN_ERROR', erroredAt: 300 })]);
        await errors.record({ tenant: direct, storeId: 'default', objectType: 'CONTACT' }, [anError({ externalObjectId: 'c', erroredAt: 200 })]);
        await errors.resolve({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['a'], 400);
        return { tenant };
      };
      const ids = (listed: { errors: { externalObjectId: string }[] }) => listed.errors.map((error) => error.externalObjectId);
      const page = { limit: 10, offset: 0 };

      it('when a portal lists its errors, then every tenant of it comes, newest first, open ones only unless resolved ones are asked for', async () => {
        const { tenant } = await seed();
        expect(ids(await errors.list({ portalId: tenant.portalId, includeResolved: false, ...page }))).toEqual(['b', 'c']);
        expect(ids(await errors.list({ portalId: tenant.portalId, includeResolved: true, ...page }))).toEqual(['b', 'c', 'a']);
        expect(await errors.list({ portalId: tenant.portalId, includeResolved: true, status: 'RESOLVED', ...page })).toMatchObject({
          errors: [{ externalObjectId: 'a', status: 'RESOLVED' }],
          hasMore: false,
        });
      });

      it('when the listing is filtered by tenant, store, object type or error type, then only those come', async () => {
        const { tenant } = await seed();
        const all = { portalId: tenant.portalId, includeResolved: true, ...page };
        expect(ids(await errors.list({ ...all, appId: null }))).toEqual(['c']);
        expect(ids(await errors.list({ ...all, appId: tenant.appId }))).toEqual(['b', 'a']);
        expect(ids(await errors.list({ ...all, storeId: 'eu' }))).toEqual(['b']);
        expect(ids(await errors.list({ ...all, objectType: 'CONTACT' }))).toEqual(['c', 'a']);
        expect(ids(await errors.list({ ...all, errorType: 'UNKNOWN_ERROR' }))).toEqual(['b']);
        expect(ids(await errors.list({ appId: tenant.appId, includeResolved: true, ...page }))).toEqual(['b', 'a']);
      });

      it('when the listing is paged, then each page goes on where the last ended and says whether more follow', async () => {
        const { tenant } = await seed();
        const all = { portalId: tenant.portalId, includeResolved: true };
        const first = await errors.list({ ...all, limit: 2, offset: 0 });
        const second = await errors.list({ ...all, limit: 2, offset: 2 });
        expect([ids(first), first.hasMore, ids(second), second.hasMore]).toEqual([['b', 'c'], true, ['a'], false]);
      });

      it('when neither a portal nor an application is given, then the listing is refused', async () => {
        await expect(errors.list({ includeResolved: true, ...page })).rejects.toThrow(/needs a portal or an application/);
      });
    });
  });
}
