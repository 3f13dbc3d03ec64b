import type { AccountRepository } from '@ecomm-sync/data-access';
import { aPortalId } from '../builders';
import type { PublicOf } from '../public-of';

type Accounts = PublicOf<AccountRepository>;

let counter = 0;
/** Ids no other case of the run uses (the real repository's collections are shared by the suite). */
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++counter}`;

/** What the use cases rely on from AccountRepository; run against the fake and the real one. */
export function describeAccountRepositoryContract(name: string, make: () => Accounts | Promise<Accounts>): void {
  describe(`AccountRepository contract: ${name}`, () => {
    let accounts: Accounts;
    beforeEach(async () => {
      accounts = await make();
    });

    const aDeveloper = async () => accounts.createDeveloper({ developerId: await accounts.nextId('developerId'), name: `dev ${unique()}` });
    const anApplication = async (developerId: number, clientSecret = 'secret-1') => {
      const id = unique();
      return accounts.createApplication({
        appId: `app-${id}`,
        developerId,
        name: `app ${id}`,
        clientId: `client-${id}`,
        clientSecret,
        sealedSecret: `v1.sealed-${id}`,
      });
    };

    it('when developers are created, then each is found by id, listed in id order, and an id cannot be taken twice', async () => {
      const first = await aDeveloper();
      const second = await aDeveloper();
      expect(second.developerId).toBeGreaterThan(first.developerId);
      expect(await accounts.findDeveloper(first.developerId)).toEqual(first);
      // A page at a time, by key: nothing lies between first.developerId - 1 and first (ids are handed out in order).
      expect(await accounts.listDevelopers({ after: first.developerId - 1, limit: 1 })).toEqual({ results: [first], hasMore: true });
      expect((await accounts.listDevelopers({ after: first.developerId, limit: 1000 })).results).toContainEqual(second);
      await expect(accounts.createDeveloper(first)).rejects.toThrow(/duplicate key/i);
      expect(await accounts.findDeveloper(-1)).toBeNull();
    });

    it('when application ids are handed out, then each is new and in the applications range', async () => {
      const [a, b] = [await accounts.nextId('appId'), await accounts.nextId('appId')];
      expect(a).toBeGreaterThan(2_000_000);
      expect(a).toBeLessThan(5_000_000);
      expect(b).not.toBe(a);
    });

    it('when an application is created, then it is found without its secret, listed by developer, and its client id is unique', async () => {
      const developer = await aDeveloper();
      const application = await anApplication(developer.developerId);
      expect(await accounts.findApplication(application.appId)).toEqual(application);
      expect(await accounts.listApplications({ developerId: developer.developerId }, { limit: 10 })).toEqual({ results: [application], hasMore: false });
      expect(await accounts.listApplications({ developerId: developer.developerId }, { after: application.appId, limit: 10 })).toEqual({
        results: [],
        hasMore: false,
      });
      const [first, second] = [application, await anApplication(developer.developerId)].sort((a, b) => (a.appId < b.appId ? -1 : 1));
      expect(await accounts.listApplications({ developerId: developer.developerId }, { limit: 1 })).toEqual({ results: [first], hasMore: true });
      expect(await accounts.listApplications({}, { after: first.appId, limit: 1000 })).toMatchObject({ results: expect.arrayContaining([second]) });
      expect(await accounts.sealedClientSecret(application.appId)).toMatch(/^v1\.sealed-/);
      await expect(accounts.createApplication({ ...application, appId: `${application.appId}-2`, clientSecret: 's', sealedSecret: 'v1.x' })).rejects.toThrow(
        /duplicate key/i,
      );
      expect(await accounts.findApplication('no-such-app')).toBeNull();
      expect(await accounts.sealedClientSecret('no-such-app')).toBeNull();
    });

    it('when a client authenticates, then only its current secret lets it in', async () => {
      const application = await anApplication((await aDeveloper()).developerId, 'first-secret');
      expect(await accounts.authenticateClient(application.clientId, 'first-secret')).toEqual(application);
      expect(await accounts.authenticateClient(application.clientId, 'wrong')).toBeNull();
      expect(await accounts.setClientSecret(application.appId, 'second-secret', 'v1.second')).toBe(true);
      expect(await accounts.authenticateClient(application.clientId, 'first-secret')).toBeNull();
      expect(await accounts.authenticateClient(application.clientId, 'second-secret')).toEqual(application);
      expect(await accounts.sealedClientSecret(application.appId)).toBe('v1.second');
      expect(await accounts.setClientSecret('no-such-app', 's', 'v1.s')).toBe(false);
      expect(await accounts.authenticateClient('no-such-client', 's')).toBeNull();
    });

    it('when an application is installed twice, then the first date stays; removed, it is gone once', async () => {
      const portalId = aPortalId();
      const appId = `app-${unique()}`;
      expect(await accounts.install(portalId, appId, 100)).toEqual({ portalId, appId, installedAt: 100 });
      expect(await accounts.install(portalId, appId, 200)).toEqual({ portalId, appId, installedAt: 100 });
      expect(await accounts.findInstall(portalId, appId)).toEqual({ portalId, appId, installedAt: 100 });
      expect(await accounts.removeInstall(portalId, appId)).toBe(true);
      expect(await accounts.removeInstall(portalId, appId)).toBe(false);
      expect(await accounts.findInstall(portalId, appId)).toBeNull();
    });

    it('when installs are listed, then by portal or by application, in portal and application order', async () => {
      const [portalA, portalB] = [aPortalId(), aPortalId()];
      const base = unique();
      const [appX, appY] = [`app-${base}-x`, `app-${base}-y`];
      await accounts.install(portalB, appX, 1);
      await accounts.install(portalA, appY, 2);
      await accounts.install(portalA, appX, 3);
      expect((await accounts.listInstalls({ portalId: portalA })).map((install) => install.appId)).toEqual([appX, appY]);
      expect((await accounts.listInstalls({ appId: appX })).map((install) => install.portalId)).toEqual([portalA, portalB]);
      expect(await accounts.listInstalls({ portalId: portalA, appId: appY })).toEqual([{ portalId: portalA, appId: appY, installedAt: 2 }]);
    });

    it('when installs are listed a page at a time, then each page goes on after the last key of the one before, portal then application', async () => {
      const [portalA, portalB] = [aPortalId(), aPortalId()];
      const base = unique();
      const [appX, appY] = [`app-${base}-x`, `app-${base}-y`];
      for (const [portalId, appId] of [
        [portalB, appX],
        [portalA, appY],
        [portalA, appX],
      ] as const)
        await accounts.install(portalId, appId, 1);
      const keys = async (filter: { portalId?: number; appId?: string }, after?: { portalId: number; appId: string }) => {
        const { results, hasMore } = await accounts.pageInstalls(filter, { after, limit: 1 });
        return { keys: results.map(({ portalId, appId }) => `${portalId}:${appId}`), hasMore };
      };

      expect(await keys({ appId: appX })).toEqual({ keys: [`${portalA}:${appX}`], hasMore: true });
      expect(await keys({ appId: appX }, { portalId: portalA, appId: appX })).toEqual({ keys: [`${portalB}:${appX}`], hasMore: false });
      expect(await keys({ portalId: portalA }, { portalId: portalA, appId: appX })).toEqual({ keys: [`${portalA}:${appY}`], hasMore: false });
      const [next] = (await keys({}, { portalId: portalA, appId: appY })).keys;
      expect(Number(next.split(':')[0])).toBeGreaterThan(portalA); // portal A has no install after appY
    });
  });
}
