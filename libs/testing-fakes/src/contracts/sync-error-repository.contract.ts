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

/** What the use cases rely on from SyncErrorRepository (not its listings); run against the fake and the real one. */
export function describeSyncErrorRepositoryContract(name: string, make: () => Errors | Promise<Errors>): void {
  describe(`SyncErrorRepository contract: ${name}`, () => {
    let errors: Errors;
    beforeEach(async () => {
      errors = await make();
    });

    it('when an error is recorded twice for one revision, then the object has it once, open, newest first with its others', async () => {
      const tenant = anAppTenant();
      await errors.record(tenant, 'default', 'CONTACT', [anError(), anError({ type: 'UNKNOWN_ERROR', details: 'later', erroredAt: 300 })]);
      await errors.record(tenant, 'default', 'CONTACT', [anError({ details: 'again' })]);
      const key = { ...tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c-1' };
      expect(await errors.listForObject(key, false)).toEqual([
        { ...key, type: 'UNKNOWN_ERROR', details: 'later', changedAt: 100, erroredAt: 300, status: 'OPEN' },
        { ...key, type: 'MISSING_REQUIRED_PROPERTY', details: 'not an e-mail address', changedAt: 100, erroredAt: 200, status: 'OPEN' },
      ]);
      expect(await errors.listForObject({ ...key, storeId: 'eu' }, true)).toEqual([]);
    });

    it("when a newer revision errs, then the older revision's open errors are resolved", async () => {
      const tenant = anAppTenant();
      await errors.record(tenant, 'default', 'CONTACT', [anError({ rev: 1 })]);
      await errors.record(tenant, 'default', 'CONTACT', [anError({ rev: 2, erroredAt: 300 })]);
      const key = { ...tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c-1' };
      expect((await errors.listForObject(key, true)).map((error) => [error.erroredAt, error.status])).toEqual([
        [300, 'OPEN'],
        [200, 'RESOLVED'],
      ]);
    });

    it('when objects are resolved, then only their open errors close, in their own tenant, store and type', async () => {
      const tenant = anAppTenant();
      await errors.record(tenant, 'default', 'CONTACT', [anError({ externalObjectId: 'a' }), anError({ externalObjectId: 'b' })]);
      await errors.resolve(tenant, 'default', 'DEAL', ['a'], 500);
      await errors.resolve({ ...tenant, appId: null }, 'default', 'CONTACT', ['a'], 500);
      await errors.resolve(tenant, 'default', 'CONTACT', ['a'], 500);
      const of = async (externalObjectId: string) =>
        (await errors.listForObject({ ...tenant, storeId: 'default', objectType: 'CONTACT', externalObjectId }, true)).map((error) => error.status);
      expect([await of('a'), await of('b')]).toEqual([['RESOLVED'], ['OPEN']]);
    });

    it("when a portal's open errors of a type are paged, then each comes once in id order, a page goes on after the id given, and an application sees its own", async () => {
      const tenant = anAppTenant();
      const other = { ...tenant, appId: `${tenant.appId}-other` };
      await errors.record(tenant, 'default', 'CONTACT', [anError({ externalObjectId: 'a' })]);
      await errors.record(other, 'default', 'CONTACT', [anError({ externalObjectId: 'b' })]);
      await errors.record(tenant, 'eu', 'DEAL', [anError({ externalObjectId: 'c' }), anError({ externalObjectId: 'd', type: 'UNKNOWN_ERROR' })]);
      await errors.record(tenant, 'default', 'CONTACT', [anError({ externalObjectId: 'e' })]);
      await errors.resolve(tenant, 'default', 'CONTACT', ['e'], 500);
      const all = await errors.pageOpenOfType(tenant.portalId, undefined, 'MISSING_REQUIRED_PROPERTY', null, 10);
      expect(all.map((entry) => entry.key.externalObjectId).sort()).toEqual(['a', 'b', 'c']);
      expect(all.find((entry) => entry.key.externalObjectId === 'c')?.key).toEqual({ ...tenant, storeId: 'eu', objectType: 'DEAL', externalObjectId: 'c' });
      expect(
        (await errors.pageOpenOfType(tenant.portalId, tenant.appId, 'MISSING_REQUIRED_PROPERTY', null, 10)).map((entry) => entry.key.externalObjectId).sort(),
      ).toEqual(['a', 'c']);
      expect(await errors.pageOpenOfType(tenant.portalId, undefined, 'MISSING_REQUIRED_PROPERTY', all[0].id, 1)).toEqual([all[1]]);
      expect(await errors.pageOpenOfType(tenant.portalId, undefined, 'MISSING_REQUIRED_PROPERTY', all[2].id, 10)).toEqual([]);
    });
  });
}
