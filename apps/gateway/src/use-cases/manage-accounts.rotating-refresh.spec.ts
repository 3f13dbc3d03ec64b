import { asRepositories, recordingLogger } from '@ecomm-sync/testing';
import { ManageAccountsUseCase } from './manage-accounts.use-case';
import { countingWindows, NOW, TTL_SECONDS, accountsWorld, type AccountsWorld } from './manage-accounts-fixture';

describe('ManageAccountsUseCase: installs and OAuth, refresh tokens rotating', () => {
  const w = accountsWorld();
  let { portals, accounts, credentials, options, useCase, portalId } = {} as AccountsWorld;
  beforeEach(() => ({ portals, accounts, credentials, options, useCase, portalId } = w));
  const { anApplication, whenStored, aRefreshedInstall } = w;

  it('when an application is installed, then it gets an access token that expires and a refresh token, both for that portal', async () => {
    const { appId } = await anApplication();

    const tokens = await useCase.install(portalId, appId);

    expect(tokens.expiresIn).toBe(TTL_SECONDS);
    expect(await credentials.resolve(tokens.accessToken)).toMatchObject({ kind: 'access-token', portalId, appId, expiresAt: NOW + TTL_SECONDS * 1000 });
    expect(await credentials.resolve(tokens.refreshToken)).toMatchObject({ kind: 'refresh-token', portalId, appId });
    expect(await accounts.listInstalls({ portalId })).toEqual([{ portalId, appId, installedAt: NOW }]);
  });

  it('when a refresh token is used, then new tokens come back, and once they refreshed it cannot be used again', async () => {
    const { appId, clientId, clientSecret } = await anApplication();
    const { refreshToken } = await useCase.install(portalId, appId);

    const next = await useCase.refresh(clientId, clientSecret, refreshToken);
    await useCase.refresh(clientId, clientSecret, next.refreshToken);

    expect(await credentials.resolve(next.accessToken)).toMatchObject({ portalId, appId });
    await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
    expect(w.accessChanged).toBe(0);
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
    w.now += 60_000;

    const retried = await useCase.refresh(clientId, clientSecret, refreshToken);

    expect(await credentials.resolve(retried.accessToken)).toMatchObject({ portalId, appId, expiresAt: w.now + TTL_SECONDS * 1000 });
    expect(await credentials.resolve(lost.accessToken)).toBeNull();
    expect(await credentials.resolve(lost.refreshToken)).toBeNull();
    const retriedRefresh = (await credentials.resolve(retried.refreshToken))!;
    // The grace runs from the first use: the retry does not extend it.
    expect(await credentials.resolve(refreshToken)).toMatchObject({ spent: { at: NOW, refreshTokenId: retriedRefresh.credentialId } });
    // Once, and only of this install: a client's retry never empties other tenants' caches.
    expect(w.tokensDeleted).toEqual([{ portalId, appId }]);
    expect(w.accessChanged).toBe(0);
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
    expect(w.accessChanged).toBe(0);
  });

  it('when the pair a refresh bought was used to call the API, then the spent token presented again is refused and that pair stays', async () => {
    const { clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
    await credentials.markAccessTokenUsed(received.accessToken, w.now); // as the gateway's look-up records it

    await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

    expect(await credentials.resolve(received.accessToken)).toMatchObject({ kind: 'access-token', usedAt: NOW });
    expect(await credentials.resolve(received.refreshToken)).toMatchObject({ kind: 'refresh-token' });
    expect(w.accessChanged).toBe(0);
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
    expect(w.tokensDeleted).toEqual([{ portalId, appId }]);
  });

  it("when the lost pair's access token is first used while its retry runs, then the retry is refused and that pair stays", async () => {
    const { appId, clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
    const passOn = credentials.passOnRefreshToken.bind(credentials);
    jest.spyOn(credentials, 'passOnRefreshToken').mockImplementationOnce(async (...args) => {
      const moved = await passOn(...args);
      await credentials.markAccessTokenUsed(received.accessToken, w.now); // the client's first call, just now
      return moved;
    });

    await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

    expect(await credentials.resolve(received.accessToken)).toMatchObject({ kind: 'access-token', usedAt: NOW });
    expect(await credentials.resolve(received.refreshToken)).toMatchObject({ kind: 'refresh-token' });
    expect(await credentials.list({ portalId, appId, kinds: ['access-token'] })).toHaveLength(2); // the install's and the received; the retry's went
    expect(w.accessChanged).toBe(0);
  });

  it('when a spent refresh token is presented after the grace, then it is refused and deleted, and the pair it bought is untouched', async () => {
    const { clientId, clientSecret, refreshToken, received } = await aRefreshedInstall();
    w.now += 60_001;

    await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });

    expect(await credentials.resolve(refreshToken)).toBeNull();
    expect(await credentials.resolve(received.refreshToken)).toMatchObject({ kind: 'refresh-token' });
    expect(w.accessChanged).toBe(0);
  });

  it('when an install refreshes, then its tokens spent before the grace are deleted, the ones within it kept', async () => {
    const { appId, clientId, clientSecret } = await anApplication();
    const { refreshToken: first } = await useCase.install(portalId, appId);
    const { refreshToken: second } = await useCase.refresh(clientId, clientSecret, first);
    w.now += 50_000;
    const { refreshToken: third } = await useCase.refresh(clientId, clientSecret, second);
    w.now += 20_000;

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
    w.now += 1_000;
    const second = await capped.refresh(clientId, clientSecret, first.refreshToken);
    w.now += 1_000;
    const third = await capped.refresh(clientId, clientSecret, second.refreshToken);

    expect(await credentials.resolve(first.accessToken)).toBeNull();
    for (const kept of [second.accessToken, third.accessToken, third.refreshToken]) expect(await credentials.resolve(kept)).not.toBeNull();
  });

  it("when a lost answer's retry leaves the install beyond its limit, then the oldest access tokens go and the retried pair stays", async () => {
    const { appId, clientId, clientSecret } = await anApplication();
    const { accessToken: oldest, refreshToken } = await useCase.install(portalId, appId);
    w.now += 1_000;
    const { accessToken: another } = await useCase.install(portalId, appId);
    w.now += 1_000;
    const lost = await useCase.refresh(clientId, clientSecret, refreshToken);
    const capped = new ManageAccountsUseCase(
      asRepositories({ portals, accounts, credentials }),
      { ...options, accessTokensPerInstall: 2 },
      recordingLogger().logger,
    );
    w.now += 1_000;

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

  it('when an application is uninstalled, then its tenant is uninstalled, its tokens stop working at once, a refresh is refused, and uninstalling again is a 404', async () => {
    const { appId, clientId, clientSecret } = await anApplication();
    const { accessToken, refreshToken } = await useCase.install(portalId, appId);

    await useCase.uninstall(portalId, appId);

    // Cleaned up before the install goes, and again after it (an install or store put that ran meanwhile).
    expect(w.uninstalling).toEqual([
      { portalId, appId },
      { portalId, appId },
    ]);
    expect(await credentials.resolve(accessToken)).toBeNull();
    await expect(useCase.refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
    await expect(useCase.uninstall(portalId, appId)).rejects.toMatchObject({
      status: 404,
      message: `Application ${appId} is not installed in portal ${portalId}`,
    });
    expect(w.accessChanged).toBe(1);
    expect(w.uninstalling).toHaveLength(2);
  });

  it("when a refresh stores its pair after the uninstall's first revocation (it had read the install before), then the uninstall's last revocation takes it", async () => {
    const { appId } = await anApplication();
    await useCase.install(portalId, appId);
    let late = '';
    w.options.onUninstalling = async (tenant) => {
      // What a refresh that passed its install check before the revocation stores meanwhile: the install is still there.
      if (late === '') late = (await credentials.issue('access-token', { portalId, appId, expiresAt: NOW + 60_000 }, NOW)).secret;
      w.uninstalling.push(tenant);
    };

    await useCase.uninstall(portalId, appId);

    expect(await credentials.resolve(late)).toBeNull();
    expect(w.accessChanged).toBe(2);
  });

  it('when an install of the application wrote after the clean-up, then the clean-up after the install is gone removes it', async () => {
    const { appId } = await anApplication();
    await useCase.install(portalId, appId);
    const tenantOf = new Map<string, 'installed' | 'uninstalled'>();
    let cleanUps = 0;
    w.options.onUninstalling = async (tenant) => {
      tenantOf.set(`${tenant.portalId}:${tenant.appId}`, 'uninstalled');
      // An install that passed its credential check before the revocation writes its tenant after the first clean-up.
      if (++cleanUps === 1) tenantOf.set(`${tenant.portalId}:${tenant.appId}`, 'installed');
    };

    await useCase.uninstall(portalId, appId);

    expect(tenantOf.get(`${portalId}:${appId}`)).toBe('uninstalled');
  });

  it("when the tenant's uninstall fails, then its tokens are gone already, the install stays, and the uninstall sent again does the rest", async () => {
    const { appId } = await anApplication();
    const { accessToken } = await useCase.install(portalId, appId);
    let failures = 1;
    w.options.onUninstalling = async (tenant) => {
      // The tokens stop working, in every replica, before the tenant is cleaned up: no request of the application's puts anything back meanwhile.
      expect(await credentials.resolve(accessToken)).toBeNull();
      expect(w.accessChanged).toBeGreaterThan(0);
      if (failures-- > 0) throw new Error('the database went away');
      w.uninstalling.push(tenant);
    };

    await expect(useCase.uninstall(portalId, appId)).rejects.toThrow('the database went away');
    expect(await accounts.findInstall(portalId, appId)).not.toBeNull();

    await useCase.uninstall(portalId, appId);
    expect(w.uninstalling).toEqual([
      { portalId, appId },
      { portalId, appId },
    ]);
    expect(await accounts.findInstall(portalId, appId)).toBeNull();
    await expect(useCase.uninstall(portalId, appId)).rejects.toMatchObject({ status: 404 });
  });
});
