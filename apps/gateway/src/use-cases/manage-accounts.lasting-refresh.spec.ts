import { aPortal, asRepositories, recordingLogger } from '@ecomm-sync/testing';
import { ManageAccountsUseCase, type AccountsOptions } from './manage-accounts.use-case';
import { countingWindows, TTL_SECONDS, accountsWorld, type AccountsWorld } from './manage-accounts-fixture';

describe('ManageAccountsUseCase: refresh tokens that last (the default, as the vendor)', () => {
  const w = accountsWorld();
  let { portals, accounts, credentials, options, portalId } = {} as AccountsWorld;
  beforeEach(() => ({ portals, accounts, credentials, options, portalId } = w));
  const { anApplication, whenStored, aRefreshedInstall } = w;

  const lasting = (more: Partial<AccountsOptions> = {}, logger = recordingLogger().logger) =>
    new ManageAccountsUseCase(asRepositories({ portals, accounts, credentials }), { ...options, rotateRefreshTokens: undefined, ...more }, logger);

  it('when an install refreshes, then the answer has a new access token and the same refresh token, which refreshes again', async () => {
    const { appId, clientId, clientSecret } = await anApplication();
    const first = await lasting().install(portalId, appId);

    w.now += 60_000;
    const next = await lasting().refresh(clientId, clientSecret, first.refreshToken);
    const third = await lasting().refresh(clientId, clientSecret, first.refreshToken);

    expect(next).toEqual({ accessToken: expect.stringMatching(/^oat-/), refreshToken: first.refreshToken, expiresIn: TTL_SECONDS });
    expect(third.refreshToken).toBe(first.refreshToken);
    expect(new Set([first.accessToken, next.accessToken, third.accessToken]).size).toBe(3);
    expect(await credentials.resolve(third.accessToken)).toMatchObject({ kind: 'access-token', portalId, appId, expiresAt: w.now + TTL_SECONDS * 1000 });
    // Earlier access tokens live out their time; the refresh token is neither spent nor doubled.
    expect(await credentials.resolve(first.accessToken)).toMatchObject({ kind: 'access-token' });
    expect(await credentials.resolve(first.refreshToken)).not.toHaveProperty('spent');
    expect(await credentials.list({ portalId, appId, kinds: ['refresh-token'] })).toHaveLength(1);
    expect(w.accessChanged).toBe(0);
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
    w.now += 2 * TTL_SECONDS * 1000 - 60_000; // the first expired a life ago, less a minute

    const second = await lasting().refresh(clientId, clientSecret, first.refreshToken);
    expect(await credentials.resolve(first.accessToken)).toMatchObject({ kind: 'access-token' });
    w.now += 2 * 60_000;
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
      w.now += 1_000;
      answered.push((await capped.refresh(clientId, clientSecret, first.refreshToken)).accessToken);
    }

    const live = await credentials.list({ portalId, appId, kinds: ['access-token'] });
    expect(live).toHaveLength(3);
    for (const [index, accessToken] of answered.entries()) {
      expect(await credentials.resolve(accessToken)).toEqual(index < 2 ? null : expect.objectContaining({ kind: 'access-token' }));
    }
    expect(await credentials.resolve(first.refreshToken)).toMatchObject({ kind: 'refresh-token' });
    // The two refreshes that deleted one each told every replica; the two within the limit did not.
    expect(w.tokensDeleted).toEqual([
      { portalId, appId },
      { portalId, appId },
    ]);
    expect(w.accessChanged).toBe(0);
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
      w.now += 1_000;
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
    w.now += 1_000;
    const second = await capped.refresh(clientId, clientSecret, first.refreshToken);
    w.now += 1_000;
    jest.spyOn(credentials, 'deleteAccessTokensBeyond').mockRejectedValueOnce(new Error('database unreachable'));

    w.tokensDeleted = [];
    const third = await capped.refresh(clientId, clientSecret, first.refreshToken);
    expect(await credentials.list({ portalId, appId, kinds: ['access-token'] })).toHaveLength(3);
    expect(entries.some((entry) => entry.level === 'warn' && /oldest access tokens could not be deleted/.test(entry.message))).toBe(true);
    expect(w.tokensDeleted).toEqual([{ portalId, appId }]); // a failed delete may have taken some: every replica is told
    w.now += 1_000;
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

    w.now += 10 * 60_000;

    await expect(lasting().refresh(clientId, clientSecret, refreshToken)).rejects.toMatchObject({ status: 400, fields: { error: 'invalid_grant' } });
  });
});
