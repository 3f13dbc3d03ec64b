import { CrmConnections } from '@ecomm-sync/crm-client';
import { SecretBox, sealedFor } from '@ecomm-sync/data-access';
import { aPortal, asRepositories, FakeAccountRepository, FakeCredentialRepository, FakePortalRepository, recordingLogger } from '@ecomm-sync/testing';
import { ManageAccountsUseCase, type AccountsOptions } from './manage-accounts.use-case';
import type { WindowCounter } from './oauth-refresh-limit';

/** Counts as the gateway's fixed windows do, in one window that does not end; `counted` lists the keys in order. */
const countingWindows = (): WindowCounter & { counted: string[] } => {
  const counted: string[] = [];
  return {
    counted,
    count: async (key) => {
      counted.push(key);
      return { hits: counted.filter((other) => other === key).length, retryAfterSeconds: 7 };
    },
  };
};

const NOW = 1_750_000_000_000;
const TTL_SECONDS = 1_800;
const box = new SecretBox('manage-accounts-spec-secrets-key');

/** Portals are made by provisionPortal, which calls the built-in CRM's admin API: its integration spec covers it. */
describe('ManageAccountsUseCase', () => {
  let portals: FakePortalRepository;
  let accounts: FakeAccountRepository;
  let credentials: FakeCredentialRepository;
  let accessChanged: number;
  let tokensDeleted: unknown[];
  let enabled: number[];
  let options: AccountsOptions;
  let useCase: ManageAccountsUseCase;
  let portalId: number;
  let now: number;

  beforeEach(() => {
    now = NOW;
    portals = new FakePortalRepository();
    accounts = new FakeAccountRepository();
    credentials = new FakeCredentialRepository();
    accessChanged = 0;
    tokensDeleted = [];
    enabled = [];
    const connections = new CrmConnections({ portals, secretBox: box, builtinBaseUrl: 'http://crm.invalid', clock: () => NOW });
    options = {
      crm: { baseUrl: 'http://crm.invalid', adminToken: 'admin' },
      accessTokenTtlSeconds: TTL_SECONDS,
      // Rotation is on for 'installs and OAuth, refresh tokens rotating'; refresh tokens that last, the default, have a describe of their own.
      rotateRefreshTokens: true,
      secretBox: box,
      connections,
      onAccessChanged: async () => {
        accessChanged++;
      },
      onTokensDeleted: async (install) => {
        tokensDeleted.push(install);
      },
      refreshes: countingWindows(),
      onPortalEnabled: async (id) => {
        enabled.push(id);
      },
      clock: () => now,
    };
    useCase = new ManageAccountsUseCase(asRepositories({ portals, accounts, credentials }), options, recordingLogger().logger);
    portalId = portals.put(aPortal({ builtinCrmToken: { sealed: box.seal('crm-token', 'unused') } })).portalId;
  });

  const anApplication = async () => {
    const { developerId } = await useCase.createDeveloper('Dev');
    return useCase.createApplication(developerId, 'Connector');
  };

  /**
   * The secrets stored from now on; once the `nth` is stored, `meanwhile` runs before the store
   * answers, as another request between a refresh's steps would.
   */
  const whenStored = (nth: number, meanwhile: () => Promise<unknown>) => {
    const issue = credentials.issue.bind(credentials);
    const stored: string[] = [];
    jest.spyOn(credentials, 'issue').mockImplementation(async (...args) => {
      const issued = await issue(...args);
      stored.push(issued.secret);
      if (stored.length === nth) await meanwhile();
      return issued;
    });
    return stored;
  };

  /** An application installed in the portal that refreshed once: the spent refresh token, and the pair it bought. */
  const aRefreshedInstall = async () => {
    const application = await anApplication();
    const { refreshToken } = await useCase.install(portalId, application.appId);
    const received = await useCase.refresh(application.clientId, application.clientSecret, refreshToken);
    return { ...application, refreshToken, received };
  };

  describe('portals', () => {
    it('when a portal is disabled and enabled, then every replica is told each time and what it was sent meanwhile is applied after enabling', async () => {
      await useCase.setPortalActive(portalId, false);
      expect(await useCase.getPortal(portalId)).toMatchObject({ active: false });
      expect(enabled).toEqual([]);

      await useCase.setPortalActive(portalId, true);

      expect(accessChanged).toBe(2);
      expect(enabled).toEqual([portalId]);
      expect((await useCase.listPortals()).find((portal) => portal.portalId === portalId)).toEqual({ portalId, name: expect.any(String), active: true });
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
      expect(accessChanged).toBe(0);
    });

    it('when a portal key is rotated, then only the new key works and the portal lists it', async () => {
      const first = await useCase.rotatePortalKey(portalId);
      const second = await useCase.rotatePortalKey(portalId);

      expect(await credentials.resolve(first.apiKey)).toBeNull();
      expect(await credentials.resolve(second.apiKey)).toMatchObject({ kind: 'portal-key', portalId });
      expect((await useCase.getPortal(portalId)).credentials.map((credential) => credential.credentialId)).toEqual([second.credentialId]);
      expect(accessChanged).toBe(2);
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
      expect(accessChanged).toBe(1);
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
      expect(await useCase.listDevelopers()).toEqual([{ developerId, name: `Developer ${developerId}` }]);
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

  describe('refresh tokens that last (the default, as the vendor)', () => {
    const lasting = (more: Partial<AccountsOptions> = {}, logger = recordingLogger().logger) =>
      new ManageAccountsUseCase(asRepositories({ portals, accounts, credentials }), { ...options, rotateRefreshTokens: undefined, ...more }, logger);

    it('when an install refreshes, then the answer has a new access token and the same refresh token, which refreshes again', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const first = await lasting().install(portalId, appId);

      now += 60_000;
      const next = await lasting().refresh(clientId, clientSecret, first.refreshToken);
      const third = await lasting().refresh(clientId, clientSecret, first.refreshToken);

      expect(next).toEqual({ accessToken: expect.stringMatching(/^oat-/), refreshToken: first.refreshToken, expiresIn: TTL_SECONDS });
      expect(third.refreshToken).toBe(first.refreshToken);
      expect(new Set([first.accessToken, next.accessToken, third.accessToken]).size).toBe(3);
      expect(await credentials.resolve(third.accessToken)).toMatchObject({ kind: 'access-token', portalId, appId, expiresAt: now + TTL_SECONDS * 1000 });
      // Earlier access tokens live out their time; the refresh token is neither spent nor doubled.
      expect(await credentials.resolve(first.accessToken)).toMatchObject({ kind: 'access-token' });
      expect(await credentials.resolve(first.refreshToken)).not.toHaveProperty('spent');
      expect(await credentials.list({ portalId, appId, kinds: ['refresh-token'] })).toHaveLength(1);
      expect(accessChanged).toBe(0);
    });

    it.each([
      [
        'a wrong client secret',
        (app: { clientSecret: string }) => ({ clientSecret: `${app.clientSecret}-wrong` }),
        { status: 401, fields: { error: 'invalid_client' } },
      ],
      [
        'an access token as refresh token',
        (_app: unknown, tokens: { accessToken: string }) => ({ refreshToken: tokens.accessToken }),
        { status: 400, fields: { error: 'invalid_grant' } },
      ],
    ])('when the refresh presents %s, then it is refused as with rotation', async (_name, change, refusal) => {
      const application = await anApplication();
      const tokens = await lasting().install(portalId, application.appId);
      const form = {
        clientId: application.clientId,
        clientSecret: application.clientSecret,
        refreshToken: tokens.refreshToken,
        ...change(application, tokens),
      };

      await expect(lasting().refresh(form.clientId, form.clientSecret, form.refreshToken)).rejects.toMatchObject(refusal);
    });

    it('when an install refreshes, then its access tokens expired for longer than their life are deleted, a later expired one kept', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const first = await lasting().install(portalId, appId);
      now += 2 * TTL_SECONDS * 1000 - 60_000; // the first expired a life ago, less a minute

      const second = await lasting().refresh(clientId, clientSecret, first.refreshToken);
      expect(await credentials.resolve(first.accessToken)).toMatchObject({ kind: 'access-token' });
      now += 2 * 60_000;
      const last = await lasting().refresh(clientId, clientSecret, first.refreshToken);

      expect(await credentials.resolve(first.accessToken)).toBeNull();
      for (const kept of [second.accessToken, last.accessToken, first.refreshToken]) expect(await credentials.resolve(kept)).not.toBeNull();
      expect(await credentials.list({ portalId, appId, kinds: ['access-token'] })).toHaveLength(2);
    });

    it("when an install holds as many access tokens as it may, then a refresh deletes the oldest and the answer's and the newest others stay", async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const capped = lasting({ accessTokensPerInstall: 3 });
      const first = await capped.install(portalId, appId);
      const answered = [first.accessToken];
      for (let refresh = 0; refresh < 4; refresh++) {
        now += 1_000;
        answered.push((await capped.refresh(clientId, clientSecret, first.refreshToken)).accessToken);
      }

      const live = await credentials.list({ portalId, appId, kinds: ['access-token'] });
      expect(live).toHaveLength(3);
      for (const [index, accessToken] of answered.entries()) {
        expect(await credentials.resolve(accessToken)).toEqual(index < 2 ? null : expect.objectContaining({ kind: 'access-token' }));
      }
      expect(await credentials.resolve(first.refreshToken)).toMatchObject({ kind: 'refresh-token' });
      // The two refreshes that deleted one each told every replica; the two within the limit did not.
      expect(tokensDeleted).toEqual([
        { portalId, appId },
        { portalId, appId },
      ]);
      expect(accessChanged).toBe(0);
    });

    it('when an install refreshes beyond its limit, then it is refused with 429 and Retry-After; refreshes refused before the install is known spend none, other installs go on', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const refreshes = countingWindows();
      const { logger, entries } = recordingLogger();
      const limited = lasting({ refreshesPerInstall: 2, refreshWindowSeconds: 60, refreshes }, logger);
      const other = portals.put(aPortal()).portalId;
      const [mine, theirs] = [await limited.install(portalId, appId), await limited.install(other, appId)];
      await expect(limited.refresh(clientId, 'secret-wrong', mine.refreshToken)).rejects.toMatchObject({ status: 401 });
      await expect(limited.refresh(clientId, clientSecret, 'ort-unknown')).rejects.toMatchObject({ status: 400 });

      await limited.refresh(clientId, clientSecret, mine.refreshToken);
      await limited.refresh(clientId, clientSecret, mine.refreshToken);
      const refused = limited.refresh(clientId, clientSecret, mine.refreshToken);

      await expect(refused).rejects.toMatchObject({
        status: 429,
        headers: { 'retry-after': '7' },
        fields: { error: 'temporarily_unavailable' },
        message: expect.stringMatching(/may refresh 2 times per 60 s/),
      });
      await expect(limited.refresh(clientId, clientSecret, mine.refreshToken)).rejects.toMatchObject({ status: 429 });
      await limited.refresh(clientId, clientSecret, theirs.refreshToken);
      const [counted, elsewhere] = [`install:${portalId}:${appId}`, `install:${other}:${appId}`];
      expect(refreshes.counted).toEqual([counted, counted, counted, counted, elsewhere]);
      // Once a window, not once a refusal.
      expect(entries.filter((entry) => /refreshed more often than it may/.test(entry.message))).toEqual([
        expect.objectContaining({ level: 'warn', portalId, appId, refreshesPerInstall: 2 }),
      ]);
    });

    it("when an application is installed again and again, then each install keeps the install's newest access tokens within the limit", async () => {
      const { appId } = await anApplication();
      const capped = lasting({ accessTokensPerInstall: 2 });
      const answered = [];
      for (let install = 0; install < 3; install++) {
        answered.push(await capped.install(portalId, appId));
        now += 1_000;
      }

      expect(await credentials.resolve(answered[0].accessToken)).toBeNull();
      for (const kept of answered.slice(1)) expect(await credentials.resolve(kept.accessToken)).toMatchObject({ kind: 'access-token' });
      // Refresh tokens are not counted: each install's lasts until it is revoked.
      for (const { refreshToken } of answered) expect(await credentials.resolve(refreshToken)).toMatchObject({ kind: 'refresh-token' });
    });

    it("when deleting an install's oldest access tokens fails, then the refresh is answered all the same and the next one deletes them", async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { logger, entries } = recordingLogger();
      const capped = lasting({ accessTokensPerInstall: 2 }, logger);
      const first = await capped.install(portalId, appId);
      now += 1_000;
      const second = await capped.refresh(clientId, clientSecret, first.refreshToken);
      now += 1_000;
      jest.spyOn(credentials, 'deleteAccessTokensBeyond').mockRejectedValueOnce(new Error('database unreachable'));

      tokensDeleted = [];
      const third = await capped.refresh(clientId, clientSecret, first.refreshToken);
      expect(await credentials.list({ portalId, appId, kinds: ['access-token'] })).toHaveLength(3);
      expect(entries.some((entry) => entry.level === 'warn' && /oldest access tokens could not be deleted/.test(entry.message))).toBe(true);
      expect(tokensDeleted).toEqual([{ portalId, appId }]); // a failed delete may have taken some: every replica is told
      now += 1_000;
      const fourth = await capped.refresh(clientId, clientSecret, first.refreshToken);

      const idOf = async (secret: string) => (await credentials.resolve(secret))!.credentialId;
      expect((await credentials.list({ portalId, appId, kinds: ['access-token'] })).map((token) => token.credentialId)).toEqual([
        await idOf(third.accessToken),
        await idOf(fourth.accessToken),
      ]);
      for (const gone of [first, second]) expect(await credentials.resolve(gone.accessToken)).toBeNull();
    });

    it('when the install is gone but its refresh token was left, then the refresh is refused and the token revoked', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await lasting().install(portalId, appId);

      await accounts.removeInstall(portalId, appId);

      await expect(lasting().refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({
        status: 400,
        message: 'The application is no longer installed in this portal',
      });
      expect(await credentials.resolve(refreshToken)).toBeNull();
    });

    it('when the refresh token is revoked while a refresh stores its access token, then the refresh is refused and that access token goes', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await lasting().install(portalId, appId);
      const refreshId = (await credentials.resolve(refreshToken))!.credentialId;
      const stored = whenStored(1, () => lasting().revoke(refreshId));

      await expect(lasting().refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
      expect(stored).toHaveLength(1);
      expect(await credentials.resolve(stored[0])).toBeNull();
    });

    it('when the install is removed while a refresh stores its access token, then the refresh is refused and that access token goes', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await lasting().install(portalId, appId);
      // An uninstall's first step; its delete of the install's tokens has not reached them yet.
      const stored = whenStored(1, () => accounts.removeInstall(portalId, appId));

      await expect(lasting().refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({
        status: 400,
        fields: { error: 'invalid_grant' },
        message: expect.stringContaining('no longer installed'),
      });
      expect(stored).toHaveLength(1);
      expect(await credentials.resolve(stored[0])).toBeNull();
    });

    it('when the install cannot be read after the access token is stored, then that token goes and the refresh token still refreshes', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await lasting().install(portalId, appId);
      const findInstall = accounts.findInstall.bind(accounts);
      const before = (await credentials.list({ portalId, appId, kinds: ['access-token'] })).length;
      // The first look (before the insert) answers; the second fails.
      jest
        .spyOn(accounts, 'findInstall')
        .mockImplementationOnce(findInstall)
        .mockImplementationOnce(async () => {
          throw new Error('database unreachable');
        });

      await expect(lasting().refresh(clientId, clientSecret, refreshToken)).rejects.toThrow('database unreachable');
      expect(await credentials.list({ portalId, appId, kinds: ['access-token'] })).toHaveLength(before);
      await expect(lasting().refresh(clientId, clientSecret, refreshToken)).resolves.toMatchObject({ refreshToken });
    });

    it('when rotation was on before, then a token it spent whose answer was lost buys a new pair within the grace, as it did', async () => {
      const { clientId, clientSecret, refreshToken, received: lost } = await aRefreshedInstall();

      const retried = await lasting().refresh(clientId, clientSecret, refreshToken);

      expect(retried.refreshToken).not.toBe(lost.refreshToken);
      expect(await credentials.resolve(lost.refreshToken)).toBeNull();
      // From then on the retried pair's refresh token lasts.
      expect((await lasting().refresh(clientId, clientSecret, retried.refreshToken)).refreshToken).toBe(retried.refreshToken);
    });

    it('when rotation was on before, then a token it spent is still refused after the grace', async () => {
      const { clientId, clientSecret, refreshToken } = await aRefreshedInstall();

      now += 10 * 60_000;

      await expect(lasting().refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
    });
  });

  describe('installs and OAuth, refresh tokens rotating', () => {
    it('when an application is installed, then it gets an access token that expires and a refresh token, both for that portal', async () => {
      const { appId } = await anApplication();

      const tokens = await useCase.install(portalId, appId);

      expect(tokens.expiresIn).toBe(TTL_SECONDS);
      expect(await credentials.resolve(tokens.accessToken)).toMatchObject({ kind: 'access-token', portalId, appId, expiresAt: NOW + TTL_SECONDS * 1000 });
      expect(await credentials.resolve(tokens.refreshToken)).toMatchObject({ kind: 'refresh-token', portalId, appId });
      expect(await useCase.listInstalls({ portalId })).toEqual([{ portalId, appId, installedAt: NOW }]);
    });

    it('when a refresh token is used, then new tokens come back, and once they refreshed it cannot be used again', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await useCase.install(portalId, appId);

      const next = await useCase.refresh(clientId, clientSecret, refreshToken);
      await useCase.refresh(clientId, clientSecret, next.refreshToken);

      expect(await credentials.resolve(next.accessToken)).toMatchObject({ portalId, appId });
      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
      expect(accessChanged).toBe(0);
    });

    it('when the install is removed while a refresh stores its pair, then the refresh is refused, the pair goes and the presented token is not spent', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await useCase.install(portalId, appId);
      const stored = whenStored(2, () => accounts.removeInstall(portalId, appId));

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
      expect(stored).toHaveLength(2);
      for (const secret of stored) expect(await credentials.resolve(secret)).toBeNull();
      expect(await credentials.resolve(refreshToken)).not.toHaveProperty('spent');
    });

    it('when the answer to a refresh was lost, then the token presented again within the grace buys a new pair, the lost pair is revoked and every replica is told', async () => {
      const { appId, clientId, clientSecret, refreshToken, received: lost } = await aRefreshedInstall();
      now += 60_000;

      const retried = await useCase.refresh(clientId, clientSecret, refreshToken);

      expect(await credentials.resolve(retried.accessToken)).toMatchObject({ portalId, appId, expiresAt: now + TTL_SECONDS * 1000 });
      expect(await credentials.resolve(lost.accessToken)).toBeNull();
      expect(await credentials.resolve(lost.refreshToken)).toBeNull();
      const retriedRefresh = (await credentials.resolve(retried.refreshToken))!;
      // The grace runs from the first use: the retry does not extend it.
      expect(await credentials.resolve(refreshToken)).toMatchObject({ spent: { at: NOW, refreshTokenId: retriedRefresh.credentialId } });
      // Once, and only of this install: a client's retry never empties other tenants' caches.
      expect(tokensDeleted).toEqual([{ portalId, appId }]);
      expect(accessChanged).toBe(0);
    });

    it("when the install is removed while a lost answer's retry stores its pair, then the retry is refused, its pair goes and the token still names the lost pair", async () => {
      const { appId, clientId, clientSecret, refreshToken, received: lost } = await aRefreshedInstall();
      const lostRefreshId = (await credentials.resolve(lost.refreshToken))!.credentialId;
      const stored = whenStored(2, () => accounts.removeInstall(portalId, appId));

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('no longer installed'),
      });
      for (const secret of stored) expect(await credentials.resolve(secret)).toBeNull();
      expect(await credentials.resolve(refreshToken)).toMatchObject({ spent: { refreshTokenId: lostRefreshId } });
      expect(accessChanged).toBe(0);
    });

    it('when the pair a refresh bought was used to call the API, then the spent token presented again is refused and that pair stays', async () => {
      const { clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
      await credentials.markAccessTokenUsed(received.accessToken, now); // as the gateway's look-up records it

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

      expect(await credentials.resolve(received.accessToken)).toMatchObject({ kind: 'access-token', usedAt: NOW });
      expect(await credentials.resolve(received.refreshToken)).toMatchObject({ kind: 'refresh-token' });
      expect(accessChanged).toBe(0);
    });

    it("when an install is over its refreshes, then a lost answer's retry still gets its pair: a token's first retries count nothing, more count", async () => {
      const refreshes = countingWindows();
      const limited = new ManageAccountsUseCase(
        asRepositories({ portals, accounts, credentials }),
        { ...options, refreshesPerInstall: 1, refreshes },
        recordingLogger().logger,
      );
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await limited.install(portalId, appId);
      await limited.refresh(clientId, clientSecret, refreshToken); // its answer is lost; the install's one refresh is spent

      for (let retry = 0; retry < 3; retry++) await limited.refresh(clientId, clientSecret, refreshToken);
      const fourth = limited.refresh(clientId, clientSecret, refreshToken);

      await expect(fourth).rejects.toMatchObject({ status: 429 });
      expect(refreshes.counted.filter((key) => key.startsWith('install:'))).toHaveLength(2);
    });

    it("when the lost pair's refresh token is used just as its retry deleted the access token, then the retry is refused and every replica is told", async () => {
      const { appId, clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
      jest.spyOn(credentials, 'revokeUnusedRefreshToken').mockResolvedValueOnce(false); // used meanwhile

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

      expect(await credentials.resolve(received.accessToken)).toBeNull();
      expect(tokensDeleted).toEqual([{ portalId, appId }]);
    });

    it("when the lost pair's access token is first used while its retry runs, then the retry is refused and that pair stays", async () => {
      const { appId, clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
      const passOn = credentials.passOnRefreshToken.bind(credentials);
      jest.spyOn(credentials, 'passOnRefreshToken').mockImplementationOnce(async (...args) => {
        const moved = await passOn(...args);
        await credentials.markAccessTokenUsed(received.accessToken, now); // the client's first call, just now
        return moved;
      });

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

      expect(await credentials.resolve(received.accessToken)).toMatchObject({ kind: 'access-token', usedAt: NOW });
      expect(await credentials.resolve(received.refreshToken)).toMatchObject({ kind: 'refresh-token' });
      expect(await credentials.list({ portalId, appId, kinds: ['access-token'] })).toHaveLength(2); // the install's and the received; the retry's went
      expect(accessChanged).toBe(0);
    });

    it('when a spent refresh token is presented after the grace, then it is refused and deleted, and the pair it bought is untouched', async () => {
      const { clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
      now += 60_001;

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

      expect(await credentials.resolve(refreshToken)).toBeNull();
      expect(await credentials.resolve(received.refreshToken)).toMatchObject({ kind: 'refresh-token' });
      expect(accessChanged).toBe(0);
    });

    it('when an install refreshes, then its tokens spent before the grace are deleted, the ones within it kept', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken: first } = await useCase.install(portalId, appId);
      const { refreshToken: second } = await useCase.refresh(clientId, clientSecret, first);
      now += 50_000;
      const { refreshToken: third } = await useCase.refresh(clientId, clientSecret, second);
      now += 20_000;

      await useCase.refresh(clientId, clientSecret, third);

      expect(await credentials.resolve(first)).toBeNull(); // spent 70 s ago
      expect(await credentials.resolve(second)).toMatchObject({ spent: { at: NOW + 50_000 } });
    });

    it('when an install holds as many access tokens as it may, then a rotating refresh deletes the oldest too', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const capped = new ManageAccountsUseCase(
        asRepositories({ portals, accounts, credentials }),
        { ...options, accessTokensPerInstall: 2 },
        recordingLogger().logger,
      );
      const first = await capped.install(portalId, appId);
      now += 1_000;
      const second = await capped.refresh(clientId, clientSecret, first.refreshToken);
      now += 1_000;
      const third = await capped.refresh(clientId, clientSecret, second.refreshToken);

      expect(await credentials.resolve(first.accessToken)).toBeNull();
      for (const kept of [second.accessToken, third.accessToken, third.refreshToken]) expect(await credentials.resolve(kept)).not.toBeNull();
    });

    it("when a lost answer's retry leaves the install beyond its limit, then the oldest access tokens go and the retried pair stays", async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { accessToken: oldest, refreshToken } = await useCase.install(portalId, appId);
      now += 1_000;
      const { accessToken: another } = await useCase.install(portalId, appId);
      now += 1_000;
      const lost = await useCase.refresh(clientId, clientSecret, refreshToken);
      const capped = new ManageAccountsUseCase(
        asRepositories({ portals, accounts, credentials }),
        { ...options, accessTokensPerInstall: 2 },
        recordingLogger().logger,
      );
      now += 1_000;

      const retried = await capped.refresh(clientId, clientSecret, refreshToken);

      expect(await credentials.resolve(lost.accessToken)).toBeNull(); // the lost pair, revoked
      expect(await credentials.resolve(oldest)).toBeNull(); // beyond the limit
      for (const kept of [another, retried.accessToken]) expect(await credentials.resolve(kept)).toMatchObject({ kind: 'access-token' });
    });

    it('when storing the new tokens fails, then the refresh token still works and the retry gets new tokens', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await useCase.install(portalId, appId);
      jest.spyOn(credentials, 'issue').mockRejectedValueOnce(new Error('database unreachable'));

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toThrow('database unreachable');
      const next = await useCase.refresh(clientId, clientSecret, refreshToken);

      const nextRefresh = (await credentials.resolve(next.refreshToken))!;
      expect(nextRefresh).toMatchObject({ kind: 'refresh-token', portalId, appId });
      expect(await credentials.resolve(refreshToken)).toMatchObject({ spent: { refreshTokenId: nextRefresh.credentialId } });
      // The half of the failed pair that was stored went: the install holds the new pair's refresh token only.
      expect(await credentials.list({ portalId, appId, kinds: ['refresh-token'] })).toEqual([nextRefresh]);
    });

    it("when a spend applied but its answer was lost (the database's), then the pair is answered all the same", async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await useCase.install(portalId, appId);
      const spend = credentials.spendRefreshToken.bind(credentials);
      jest.spyOn(credentials, 'spendRefreshToken').mockImplementationOnce(async (...args) => {
        await spend(...args);
        throw new Error('connection reset');
      });

      const next = await useCase.refresh(clientId, clientSecret, refreshToken);

      const nextRefresh = (await credentials.resolve(next.refreshToken))!;
      expect(await credentials.resolve(refreshToken)).toMatchObject({ spent: { refreshTokenId: nextRefresh.credentialId } });
      expect(await credentials.resolve(next.accessToken)).toMatchObject({ kind: 'access-token', portalId, appId });
    });

    it('when moving a spent token on to the new pair fails, then that pair is taken back and a retry still replaces the lost one', async () => {
      const { appId, clientId, clientSecret, refreshToken, received: lost } = await aRefreshedInstall();
      jest.spyOn(credentials, 'passOnRefreshToken').mockRejectedValueOnce(new Error('database unreachable'));

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toThrow('database unreachable');
      expect(await credentials.list({ portalId, appId, kinds: ['refresh-token'] })).toHaveLength(1); // the lost pair's only
      const retried = await useCase.refresh(clientId, clientSecret, refreshToken);

      expect(await credentials.resolve(retried.accessToken)).toMatchObject({ kind: 'access-token' });
      expect(await credentials.resolve(lost.refreshToken)).toBeNull();
    });

    it("when the lost pair's refresh token cannot be deleted, then no new pair is handed out beside it, and the spent token is refused from then on", async () => {
      const { appId, clientId, clientSecret, refreshToken, received: lost } = await aRefreshedInstall();
      jest.spyOn(credentials, 'revokeUnusedRefreshToken').mockRejectedValueOnce(new Error('database unreachable'));

      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toThrow('database unreachable');

      // The safe side of a double failure: the client installs again (decision 12, addendum of 2026-12-05).
      expect((await credentials.list({ portalId, appId, kinds: ['refresh-token'] })).map((one) => one.credentialId)).toEqual([
        (await credentials.resolve(lost.refreshToken))!.credentialId,
      ]);
      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
    });

    it('when two refreshes present the same token at once, then one gets new tokens and the other is refused, leaving no tokens of its own', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { refreshToken } = await useCase.install(portalId, appId);
      const refreshTokens = async () => (await credentials.list({ portalId, appId, kinds: ['refresh-token'] })).length;

      const revoke = jest.spyOn(credentials, 'revoke');

      const outcomes = await Promise.allSettled([useCase.refresh(clientId, clientSecret, refreshToken), useCase.refresh(clientId, clientSecret, refreshToken)]);

      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(revoke).toHaveBeenCalledTimes(2); // the refused one's access and refresh token
      expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: { status: 400, fields: { error: 'invalid_grant' } } });
      expect(await refreshTokens()).toBe(1); // the winner's; the loser's pair was taken back
    });

    it.each([
      ['a wrong client secret', async (app: { clientId: string }, token: string) => useCase.refresh(app.clientId, 'wrong', token), 401, 'invalid_client'],
      [
        'the refresh token of another application',
        async (_app: { clientId: string }, token: string) => anApplication().then((other) => useCase.refresh(other.clientId, other.clientSecret, token)),
        400,
        'invalid_grant',
      ],
    ])('when a refresh comes with %s, then it is refused with its OAuth error code', async (_case, refresh, status, error) => {
      const app = await anApplication();
      const { refreshToken } = await useCase.install(portalId, app.appId);
      await expect(refresh(app, refreshToken)).rejects.toMatchObject({ status, fields: { error } });
    });

    it('when an application is uninstalled, then its tokens stop working at once, a refresh is refused, and uninstalling again is a 404', async () => {
      const { appId, clientId, clientSecret } = await anApplication();
      const { accessToken, refreshToken } = await useCase.install(portalId, appId);

      await useCase.uninstall(portalId, appId);

      expect(await credentials.resolve(accessToken)).toBeNull();
      await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
      await expect(useCase.uninstall(portalId, appId)).rejects.toMatchObject({
        status: 404,
        message: `Application ${appId} is not installed in portal ${portalId}`,
      });
      expect(accessChanged).toBe(1);
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
      expect(accessChanged).toBe(1);
      await expect(useCase.revoke(credentialId)).rejects.toMatchObject({ status: 404, message: `No credential ${credentialId}` });
    });
  });
});
