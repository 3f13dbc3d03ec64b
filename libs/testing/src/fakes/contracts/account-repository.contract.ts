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
      expect((await accounts.listDevelopers()).filter((developer) => [first.developerId, second.developerId].includes(developer.developerId))).toEqual([
        first,
        second,
      ]);
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
      expect(await accounts.listApplications({ developerId: developer.developerId })).toEqual([application]);
      expect((await accounts.listApplications()).some((listed) => listed.appId === application.appId)).toBe(true);
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
      const [appX, appY] = [`app-${unique()}-x`, `app-${unique()}-y`];
      await accounts.install(portalB, appX, 1);
      await accounts.install(portalA, appY, 2);
      await accounts.install(portalA, appX, 3);
      expect((await accounts.listInstalls({ portalId: portalA })).map((install) => install.appId)).toEqual([appX, appY]);
      expect((await accounts.listInstalls({ appId: appX })).map((install) => install.portalId)).toEqual([portalA, portalB]);
      expect(await accounts.listInstalls({ portalId: portalA, appId: appY })).toEqual([{ portalId: portalA, appId: appY, installedAt: 2 }]);
    });
  });
}
