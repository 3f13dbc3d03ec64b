import type { CredentialRepository } from '@ecomm-sync/data-access';
import { aPortalId } from '../builders';
import type { PublicOf } from '../public-of';
import { describeOAuthTokenCases } from './credential-tokens.contract';

export type Credentials = PublicOf<CredentialRepository>;

/** What the use cases and the gateway's authentication rely on from CredentialRepository; run against the fake and the real one. */
export function describeCredentialRepositoryContract(name: string, make: () => Credentials | Promise<Credentials>): void {
  describe(`CredentialRepository contract: ${name}`, () => {
    let credentials: Credentials;
    let portalId: number;
    beforeEach(async () => {
      credentials = await make();
      portalId = aPortalId();
    });

    it('when a credential is issued, then its secret says its kind and resolves to it, and a wrong secret resolves to nothing', async () => {
      const { secret, credential } = await credentials.issue('private-app-token', { portalId, name: 'erp' }, 100);
      expect(secret).toMatch(/^pat-/);
      expect(credential).toEqual({
        credentialId: expect.stringMatching(/^cred_/),
        kind: 'private-app-token',
        portalId,
        developerId: null,
        appId: null,
        name: 'erp',
        expiresAt: null,
        createdAt: 100,
      });
      expect(await credentials.resolve(secret)).toEqual(credential);
      expect(await credentials.find(credential.credentialId)).toEqual(credential);
      expect(await credentials.resolve(`${secret}x`)).toBeNull();
      expect(await credentials.find('cred_none')).toBeNull();
    });

    it('when credentials are listed, then by owner and kind, oldest first', async () => {
      const appId = `app-${portalId}`;
      const key = (await credentials.issue('portal-key', { portalId }, 100)).credential;
      const access = (await credentials.issue('access-token', { portalId, appId, expiresAt: 999 }, 200)).credential;
      const refresh = (await credentials.issue('refresh-token', { portalId, appId }, 300)).credential;
      expect(await credentials.list({ portalId })).toEqual([key, access, refresh]);
      expect(await credentials.list({ appId })).toEqual([access, refresh]);
      expect(await credentials.list({ portalId, kinds: ['portal-key', 'refresh-token'] })).toEqual([key, refresh]);
    });

    it('when credentials are revoked, then one by id once, and by owner all but the one kept', async () => {
      const first = (await credentials.issue('portal-key', { portalId }, 100)).credential;
      const second = await credentials.issue('portal-key', { portalId }, 200);
      const third = (await credentials.issue('portal-key', { portalId }, 300)).credential;
      expect(await credentials.revoke(first.credentialId)).toEqual(first);
      expect(await credentials.revoke(first.credentialId)).toBeNull();
      expect(await credentials.revokeWhere({ portalId, kinds: ['portal-key'] }, third.credentialId)).toBe(1);
      expect(await credentials.list({ portalId })).toEqual([third]);
      expect(await credentials.resolve(second.secret)).toBeNull();
      await expect(credentials.revokeWhere({})).rejects.toThrow(/every credential/);
    });

    it('when keys are rotated, then each owner and kind counts its own generations, and revoking below one leaves that one and newer', async () => {
      const developerId = portalId + 7;
      expect(await credentials.nextKeyGeneration('portal-key', { portalId })).toBe(1);
      expect(await credentials.nextKeyGeneration('portal-key', { portalId })).toBe(2);
      expect(await credentials.nextKeyGeneration('developer-key', { developerId })).toBe(1);
      const unrotated = await credentials.issue('portal-key', { portalId }, 100);
      const first = await credentials.issue('portal-key', { portalId, generation: 1 }, 300);
      const second = (await credentials.issue('portal-key', { portalId, generation: 2 }, 200)).credential;
      const third = await credentials.issue('portal-key', { portalId, generation: 3 }, 100);

      expect(await credentials.revokeWhere({ portalId, kinds: ['portal-key'] }, second.credentialId, { generationBelow: 2 })).toBe(2);

      expect([await credentials.resolve(unrotated.secret), await credentials.resolve(first.secret)]).toEqual([null, null]);
      expect(await credentials.resolve(third.secret)).toMatchObject({ portalId });
      expect([await credentials.hasKeyAbove('portal-key', { portalId }, 2), await credentials.hasKeyAbove('portal-key', { portalId }, 3)]).toEqual([
        true,
        false,
      ]);
      expect(await credentials.hasKeyAbove('developer-key', { developerId }, 0)).toBe(false);
      await expect(credentials.revokeWhere({}, undefined, { generationBelow: 1 })).rejects.toThrow(/every credential/);
      expect((await credentials.list({ portalId })).map((one) => one.credentialId).sort()).toEqual([second.credentialId, third.credential.credentialId].sort());
    });

    describeOAuthTokenCases(() => ({ credentials, portalId }));

    it('when a fixed secret is given (the demo keys), then it is the secret, and giving it twice is refused', async () => {
      const secret = `pk-fixed-${portalId}`;
      expect((await credentials.issue('portal-key', { portalId }, 100, secret)).secret).toBe(secret);
      await expect(credentials.issue('portal-key', { portalId }, 100, secret)).rejects.toThrow(/duplicate key/i);
    });
  });
}
