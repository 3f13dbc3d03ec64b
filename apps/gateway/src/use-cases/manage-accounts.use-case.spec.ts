import { sealedFor } from '@ecomm-sync/data-access';
import { box, accountsWorld, type AccountsWorld } from './manage-accounts-fixture';
import { asRepositories } from '@ecomm-sync/testing';
import { AdminListingsUseCase } from './admin-listings.use-case';

describe('ManageAccountsUseCase: portals, developers, applications and credentials', () => {
  const w = accountsWorld();
  let { accounts, credentials, useCase, portalId } = {} as AccountsWorld;
  beforeEach(() => ({ accounts, credentials, useCase, portalId } = w));
  const { anApplication } = w;

  describe('portals', () => {
    it('when a portal is disabled and enabled, then every replica is told each time and what it was sent meanwhile is applied after enabling', async () => {
      await useCase.setPortalActive(portalId, false);
      expect(await useCase.getPortal(portalId)).toMatchObject({ active: false });
      expect(w.enabled).toEqual([]);

      await useCase.setPortalActive(portalId, true);

      expect(w.accessChanged).toBe(2);
      expect(w.enabled).toEqual([portalId]);
      expect(
        (await new AdminListingsUseCase(asRepositories({ portals: w.portals, accounts })).portals({ limit: 1000 })).results.find(
          (portal) => portal.portalId === portalId,
        ),
      ).toEqual({
        portalId,
        name: expect.any(String),
        active: true,
      });
    });

    it('when an unknown portal is read, changed or given a key, then a 404 names it', async () => {
      for (const call of [
        () => useCase.getPortal(1),
        () => useCase.setPortalActive(1, true),
        () => useCase.rotatePortalKey(1),
        () => useCase.createPrivateAppToken(1, 'x'),
      ]) {
        await expect(call()).rejects.toMatchObject({ status: 404, message: 'No portal 1' });
      }
      expect(w.accessChanged).toBe(0);
    });

    it('when a portal key is rotated, then only the new key works and the portal lists it', async () => {
      const first = await useCase.rotatePortalKey(portalId);
      const second = await useCase.rotatePortalKey(portalId);

      expect(await credentials.resolve(first.apiKey)).toBeNull();
      expect(await credentials.resolve(second.apiKey)).toMatchObject({ kind: 'portal-key', portalId });
      expect((await useCase.getPortal(portalId)).credentials.map((credential) => credential.credentialId)).toEqual([second.credentialId]);
      expect(w.accessChanged).toBe(2);
    });

    it('when a portal key is rotated twice at once (a double click), then the later rotation’s key alone works and the other answers 409', async () => {
      const earlier = await useCase.rotatePortalKey(portalId);

      const both = await Promise.allSettled([useCase.rotatePortalKey(portalId), useCase.rotatePortalKey(portalId)]);

      const answered = both.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      const refused = both.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      expect(answered).toHaveLength(1);
      expect(refused).toEqual([expect.objectContaining({ status: 409, message: expect.stringMatching(/rotate again/) })]);
      expect(await credentials.resolve(answered[0].apiKey)).toMatchObject({ kind: 'portal-key', portalId });
      expect(await credentials.resolve(earlier.apiKey)).toBeNull();
      expect((await useCase.getPortal(portalId)).credentials.map((credential) => credential.credentialId)).toEqual([answered[0].credentialId]);
    });

    it('when a later rotation fails before it stores its key, then the earlier one’s key stays and is answered', async () => {
      const issue = credentials.issue.bind(credentials);
      jest.spyOn(credentials, 'issue').mockImplementation(async (kind, scope, now, secret) => {
        if (scope.generation === 2) throw new Error('database unreachable');
        return issue(kind, scope, now, secret);
      });

      const [first, second] = await Promise.allSettled([useCase.rotatePortalKey(portalId), useCase.rotatePortalKey(portalId)]);

      expect(second.status).toBe('rejected');
      expect(first.status).toBe('fulfilled');
      expect(await credentials.resolve((first as PromiseFulfilledResult<{ apiKey: string }>).value.apiKey)).toMatchObject({ portalId });
    });

    it('when a key was issued by a clock far ahead (another machine) and the key is rotated, then it stops working all the same', async () => {
      const ahead = await credentials.issue('portal-key', { portalId }, w.now + 3_600_000);

      const rotated = await useCase.rotatePortalKey(portalId);

      expect(await credentials.resolve(ahead.secret)).toBeNull();
      expect(await credentials.resolve(rotated.apiKey)).toMatchObject({ portalId });
    });

    it('when private-app tokens are made, then each works alongside the others', async () => {
      const erp = await useCase.createPrivateAppToken(portalId, 'erp');
      const pos = await useCase.createPrivateAppToken(portalId, 'pos');
      expect(await credentials.resolve(erp.token)).toMatchObject({ kind: 'private-app-token', name: 'erp' });
      expect(await credentials.resolve(pos.token)).toMatchObject({ kind: 'private-app-token', name: 'pos' });
    });

    it('when a hosted CRM connection is set, then it is shown without its secret and every replica is told; an unusable one is a 400', async () => {
      const view = await useCase.setCrmConnection(portalId, {
        kind: 'hosted',
        baseUrl: 'https://api.crm.example.com',
        auth: { type: 'private-app', token: 'pat-secret-123' },
      });

      expect(view).toMatchObject({ kind: 'hosted', authType: 'private-app', baseUrl: 'https://api.crm.example.com' });
      expect(JSON.stringify(await useCase.getCrmConnection(portalId))).not.toContain('pat-secret-123');
      expect(w.accessChanged).toBe(1);
      await expect(useCase.setCrmConnection(portalId, { kind: 'builtin', limits: { timeZone: 'Mars/Olympus' } })).rejects.toMatchObject({
        status: 400,
        message: 'body/limits.timeZone "Mars/Olympus" is not an IANA time zone (such as UTC or Europe/Berlin)',
      });
      await expect(useCase.setCrmConnection(portalId + 1, { kind: 'builtin' })).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('developers and applications', () => {
    it('when a developer is created, then its key works and rotating it leaves only the new one', async () => {
      const { developerId, apiKey } = await useCase.createDeveloper();
      expect(await new AdminListingsUseCase(asRepositories({ portals: w.portals, accounts })).developers({ limit: 100 })).toEqual({
        results: [{ developerId, name: `Developer ${developerId}` }],
        hasMore: false,
      });
      expect(await credentials.resolve(apiKey)).toMatchObject({ kind: 'developer-key', developerId });

      const rotated = await useCase.rotateDeveloperKey(developerId);

      expect(await credentials.resolve(apiKey)).toBeNull();
      expect(await credentials.resolve(rotated.apiKey)).toMatchObject({ developerId });
      await expect(useCase.rotateDeveloperKey(developerId + 1)).rejects.toMatchObject({ status: 404, message: `No developer ${developerId + 1}` });
    });

    it('when an application is created, then its client authenticates with its secret, which is kept sealed for signing', async () => {
      const { appId, clientId, clientSecret } = await anApplication();

      expect(await accounts.authenticateClient(clientId, clientSecret)).toMatchObject({ appId, name: 'Connector' });
      const sealed = (await accounts.sealedClientSecret(appId))!;
      expect(box.open(sealed, sealedFor.appClientSecret(appId))).toBe(clientSecret);
      // Bound to its application: the same value does not open as another's.
      expect(() => box.open(sealed, sealedFor.appClientSecret(`${appId}0`))).toThrow();
      await expect(useCase.createApplication(999, 'x')).rejects.toMatchObject({ status: 404 });
    });

    it('when a client secret is rotated, then the old one no longer authenticates', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { clientSecret: rotated } = await useCase.rotateClientSecret(appId);
      expect(await accounts.authenticateClient(clientId, clientSecret)).toBeNull();
      expect(await accounts.authenticateClient(clientId, rotated)).toMatchObject({ appId });
      await expect(useCase.rotateClientSecret('no-app')).rejects.toMatchObject({ status: 404, message: 'No application no-app' });
    });
  });

  describe('credentials', () => {
    it('when credentials are listed without an owner, then a 400 says which filters to give', async () => {
      await expect(useCase.listCredentials({})).rejects.toMatchObject({ status: 400, message: 'Give portalId, developerId or appId to list credentials' });
    });

    it('when a credential is revoked, then it stops working, every replica is told, and revoking it again is a 404', async () => {
      const { token, credentialId } = await useCase.createPrivateAppToken(portalId, 'erp');
      expect(await useCase.listCredentials({ portalId })).toHaveLength(1);

      await useCase.revoke(credentialId);

      expect(await credentials.resolve(token)).toBeNull();
      expect(w.accessChanged).toBe(1);
      await expect(useCase.revoke(credentialId)).rejects.toMatchObject({ status: 404, message: `No credential ${credentialId}` });
    });
  });
});
