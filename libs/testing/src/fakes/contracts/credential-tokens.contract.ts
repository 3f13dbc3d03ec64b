import type { Credentials } from './credential-repository.contract';
import { aPortalId } from '../builders';

/**
 * An install's OAuth tokens in CredentialRepository: refresh tokens spent and passed on, access
 * tokens' first use, what is revoked as unused, and the outlived tokens an install's tidying
 * deletes. Part of the CredentialRepository contract (the fake and the real one).
 */
export function describeOAuthTokenCases(of: () => { credentials: Credentials; portalId: number }): void {
  let credentials: Credentials;
  let portalId: number;
  beforeEach(() => {
    ({ credentials, portalId } = of());
  });

  it('when a refresh token is spent, then once, on the pair it bought, and no longer listed; an access token is not spent', async () => {
    const refresh = await credentials.issue('refresh-token', { portalId, appId: 'a' }, 100);
    const access = await credentials.issue('access-token', { portalId, appId: 'a' }, 100);
    const spend = { at: 200, accessTokenId: 'cred_a1', refreshTokenId: 'cred_r1' };
    expect(await credentials.spendRefreshToken(access.secret, spend)).toBe(false);
    expect(await credentials.resolve(access.secret)).toEqual(access.credential);
    const outcomes = await Promise.all([
      credentials.spendRefreshToken(refresh.secret, spend),
      credentials.spendRefreshToken(refresh.secret, { ...spend, refreshTokenId: 'cred_r2' }),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const spent = await credentials.resolve(refresh.secret);
    expect(spent).toEqual({ ...refresh.credential, spent: outcomes[0] ? spend : { ...spend, refreshTokenId: 'cred_r2' } });
    expect(await credentials.spendRefreshToken(refresh.secret, spend)).toBe(false);
    expect(await credentials.list({ portalId })).toEqual([access.credential]);
  });

  it('when a spent refresh token is passed on, then only from the pair it names, to the new pair, keeping the time it was spent', async () => {
    const refresh = await credentials.issue('refresh-token', { portalId, appId: 'a' }, 100);
    const spend = { at: 200, accessTokenId: 'cred_a1', refreshTokenId: 'cred_r1' };
    const next = { accessTokenId: 'cred_a2', refreshTokenId: 'cred_r2' };
    const other = { accessTokenId: 'cred_a3', refreshTokenId: 'cred_r3' };
    expect(await credentials.passOnRefreshToken(refresh.secret, 'cred_r1', next)).toBe(false); // not spent yet
    await credentials.spendRefreshToken(refresh.secret, spend);
    const outcomes = await Promise.all([
      credentials.passOnRefreshToken(refresh.secret, 'cred_r1', next),
      credentials.passOnRefreshToken(refresh.secret, 'cred_r1', other),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await credentials.resolve(refresh.secret))?.spent).toEqual({ at: 200, ...(outcomes[0] ? next : other) });
    expect(await credentials.passOnRefreshToken(refresh.secret, 'cred_r1', next)).toBe(false);
  });

  it('when an install is uninstalled (its tokens revoked by kind), then its spent refresh tokens go too', async () => {
    const appId = 'a';
    const spent = await credentials.issue('refresh-token', { portalId, appId }, 100);
    await credentials.spendRefreshToken(spent.secret, { at: 200, accessTokenId: 'cred_a', refreshTokenId: 'cred_r' });
    await credentials.issue('refresh-token', { portalId, appId }, 100);
    expect(await credentials.revokeWhere({ portalId, appId, kinds: ['access-token', 'refresh-token'] })).toBe(2);
    expect(await credentials.resolve(spent.secret)).toBeNull();
  });

  it("when an access token's first use is recorded, then once, and only for an access token", async () => {
    const access = await credentials.issue('access-token', { portalId, appId: 'a', expiresAt: 999 }, 100);
    const refresh = await credentials.issue('refresh-token', { portalId, appId: 'a' }, 100);
    const outcomes = await Promise.all([credentials.markAccessTokenUsed(access.secret, 200), credentials.markAccessTokenUsed(access.secret, 300)]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const used = await credentials.resolve(access.secret);
    expect(used).toEqual({ ...access.credential, usedAt: outcomes[0] ? 200 : 300 });
    expect(await credentials.find(access.credential.credentialId)).toEqual(used);
    expect(await credentials.markAccessTokenUsed(refresh.secret, 200)).toBe(false);
    expect(await credentials.resolve(refresh.secret)).toEqual(refresh.credential);
  });

  it('when an access token is revoked as unused, then only while its first use is not recorded', async () => {
    const unused = (await credentials.issue('access-token', { portalId, appId: 'a' }, 100)).credential;
    const used = await credentials.issue('access-token', { portalId, appId: 'a' }, 100);
    const refresh = (await credentials.issue('refresh-token', { portalId, appId: 'a' }, 100)).credential;
    await credentials.markAccessTokenUsed(used.secret, 200);
    expect(await credentials.revokeUnusedAccessToken(used.credential.credentialId)).toBe(false);
    expect(await credentials.revokeUnusedAccessToken(refresh.credentialId)).toBe(false);
    expect(await credentials.revokeUnusedAccessToken(unused.credentialId)).toBe(true);
    expect(await credentials.revokeUnusedAccessToken(unused.credentialId)).toBe(false);
    expect(await credentials.list({ portalId })).toEqual([{ ...used.credential, usedAt: 200 }, refresh]);
  });

  it('when an unused refresh token is revoked as unused, then it goes; a used one stays, and an access token is no refresh token', async () => {
    const appId = 'a';
    const unused = (await credentials.issue('refresh-token', { portalId, appId }, 100)).credential;
    const used = await credentials.issue('refresh-token', { portalId, appId }, 100);
    const access = (await credentials.issue('access-token', { portalId, appId }, 100)).credential;
    await credentials.spendRefreshToken(used.secret, { at: 200, accessTokenId: 'cred_a', refreshTokenId: 'cred_r' });
    expect(await credentials.revokeUnusedRefreshToken(unused.credentialId)).toBe(true);
    expect(await credentials.revokeUnusedRefreshToken(unused.credentialId)).toBe(false);
    expect(await credentials.revokeUnusedRefreshToken(used.credential.credentialId)).toBe(false);
    expect(await credentials.revokeUnusedRefreshToken(access.credentialId)).toBe(false);
    expect(await credentials.find(used.credential.credentialId)).not.toBeNull();
    expect(await credentials.find(access.credentialId)).toEqual(access);
  });

  it("when outlived tokens are deleted, then only the install's refresh tokens spent before the time", async () => {
    const appId = 'a';
    const tokens = await Promise.all(Array.from({ length: 3 }, () => credentials.issue('refresh-token', { portalId, appId }, 100)));
    const other = await credentials.issue('refresh-token', { portalId, appId: 'b' }, 100);
    const unused = await credentials.issue('refresh-token', { portalId, appId }, 100);
    await Promise.all(
      [...tokens, other].map((token, index) =>
        credentials.spendRefreshToken(token.secret, { at: [100, 200, 300, 100][index], accessTokenId: 'cred_a', refreshTokenId: 'cred_r' }),
      ),
    );
    expect(await credentials.deleteOutlivedTokens({ portalId, appId }, { accessTokensExpiredBefore: 0, refreshTokensSpentBefore: 250 })).toBe(2);
    expect(await credentials.resolve(tokens[0].secret)).toBeNull();
    expect(await credentials.resolve(tokens[1].secret)).toBeNull();
    expect((await credentials.resolve(tokens[2].secret))?.spent?.at).toBe(300);
    expect(await credentials.resolve(other.secret)).not.toBeNull();
    expect(await credentials.resolve(unused.secret)).toEqual(unused.credential);
  });

  it("when outlived tokens are deleted, then only the install's access tokens that expired before the time", async () => {
    const appId = 'a';
    const [early, late] = await Promise.all([500, 700].map((expiresAt) => credentials.issue('access-token', { portalId, appId, expiresAt }, 100)));
    const other = await credentials.issue('access-token', { portalId, appId: 'b', expiresAt: 500 }, 100);
    const lasting = await credentials.issue('access-token', { portalId, appId }, 100);
    const refresh = await credentials.issue('refresh-token', { portalId, appId }, 100);
    const spent = await credentials.issue('refresh-token', { portalId, appId }, 100);
    await credentials.spendRefreshToken(spent.secret, { at: 300, accessTokenId: 'cred_a', refreshTokenId: 'cred_r' });
    expect(await credentials.deleteOutlivedTokens({ portalId, appId }, { accessTokensExpiredBefore: 600, refreshTokensSpentBefore: 300 })).toBe(1);
    expect(await credentials.resolve(lasting.secret)).toEqual(lasting.credential);
    expect(await credentials.resolve(early.secret)).toBeNull();
    expect(await credentials.resolve(late.secret)).toEqual(late.credential);
    expect(await credentials.resolve(other.secret)).toEqual(other.credential);
    expect(await credentials.resolve(refresh.secret)).toEqual(refresh.credential);
    expect((await credentials.resolve(spent.secret))?.spent?.at).toBe(300);
  });

  it('when access tokens and refresh tokens are both outlived, then one call deletes both', async () => {
    const appId = 'a';
    const access = await credentials.issue('access-token', { portalId, appId, expiresAt: 500 }, 100);
    const spent = await credentials.issue('refresh-token', { portalId, appId }, 100);
    await credentials.spendRefreshToken(spent.secret, { at: 200, accessTokenId: 'cred_a', refreshTokenId: 'cred_r' });
    expect(await credentials.deleteOutlivedTokens({ portalId, appId }, { accessTokensExpiredBefore: 600, refreshTokensSpentBefore: 600 })).toBe(2);
    expect(await credentials.resolve(access.secret)).toBeNull();
    expect(await credentials.resolve(spent.secret)).toBeNull();
  });

  it("when access tokens beyond the newest are deleted, then only the install's oldest go and the one kept stays", async () => {
    const appId = 'a';
    const issued = [];
    for (const createdAt of [100, 200, 300, 400]) issued.push(await credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, createdAt));
    // Issued at the same time as the newest, and the one kept: it stays, and counts among the newest.
    const justIssued = await credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, 400);
    const other = await credentials.issue('access-token', { portalId, appId: 'b', expiresAt: 5_000 }, 50);
    const otherPortal = await credentials.issue('access-token', { portalId: aPortalId(), appId, expiresAt: 5_000 }, 50);
    const refresh = await credentials.issue('refresh-token', { portalId, appId }, 10);

    expect(await credentials.deleteAccessTokensBeyond({ portalId, appId }, 3, justIssued.credential.credentialId)).toBe(2);

    const left = await credentials.list({ portalId, appId, kinds: ['access-token'] });
    expect(left.map((token) => token.credentialId).sort()).toEqual([justIssued, issued[3], issued[2]].map((token) => token.credential.credentialId).sort());
    for (const untouched of [other, otherPortal, refresh]) expect(await credentials.resolve(untouched.secret)).toEqual(untouched.credential);
    expect(await credentials.deleteAccessTokensBeyond({ portalId, appId }, 3, justIssued.credential.credentialId)).toBe(0);
  });

  it('when access tokens issued in the same millisecond must go, then the ones with the smallest ids go, as in every implementation', async () => {
    const appId = 'a';
    const sameTime = await Promise.all(Array.from({ length: 10 }, () => credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, 100)));
    const kept = await credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, 200);
    const byId = sameTime.map((token) => token.credential.credentialId).sort();

    expect(await credentials.deleteAccessTokensBeyond({ portalId, appId }, 4, kept.credential.credentialId)).toBe(7);

    const left = (await credentials.list({ portalId, appId, kinds: ['access-token'] })).map((token) => token.credentialId);
    expect(left.sort()).toEqual([...byId.slice(-3), kept.credential.credentialId].sort());
  });

  it('when the token kept is older than the others (issued by a replica whose clock is behind), then it stays and the others are counted after it', async () => {
    const appId = 'a';
    const kept = await credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, 50);
    const others = [];
    for (const createdAt of [100, 200, 300, 400]) others.push(await credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, createdAt));

    expect(await credentials.deleteAccessTokensBeyond({ portalId, appId }, 2, kept.credential.credentialId)).toBe(3);

    expect(await credentials.resolve(kept.secret)).toEqual(kept.credential);
    expect(await credentials.resolve(others[3].secret)).toEqual(others[3].credential);
    for (const gone of others.slice(0, 3)) expect(await credentials.resolve(gone.secret)).toBeNull();
  });

  it('when fewer than one access token is to be kept, then nothing is deleted (the limit is off)', async () => {
    const appId = 'a';
    const [older, newer] = await Promise.all([100, 200].map((at) => credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, at)));
    expect(await credentials.deleteAccessTokensBeyond({ portalId, appId }, 0, newer.credential.credentialId)).toBe(0);
    expect(await credentials.resolve(older.secret)).toEqual(older.credential);
  });

  it('when access tokens beyond one are deleted, then only the one kept is left', async () => {
    const appId = 'a';
    const [older, spared] = await Promise.all([100, 200].map((at) => credentials.issue('access-token', { portalId, appId, expiresAt: 5_000 }, at)));
    expect(await credentials.deleteAccessTokensBeyond({ portalId, appId }, 1, spared.credential.credentialId)).toBe(1);
    expect(await credentials.resolve(older.secret)).toBeNull();
    expect(await credentials.resolve(spared.secret)).toEqual(spared.credential);
  });
}
