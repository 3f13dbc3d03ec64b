import { connectionVersionOf, currentEcommPipeline, type PortalRepository, type StoredCrmConnection } from '@ecomm-sync/data-access';
import { aPortalId } from '../builders';
import type { PublicOf } from '../public-of';

type Portals = PublicOf<PortalRepository>;

/** Any `v1.` text passes for sealed: the repositories check the form, not the key. */
const sealed = (secret: string) => `v1.${Buffer.from(secret).toString('base64')}`;
const LIMITS = { burstPer10s: 100, dailyCap: 250_000, timeZone: 'UTC', searchPerSecond: 4 };
const oauth = (refreshToken: string): StoredCrmConnection => ({
  kind: 'hosted',
  baseUrl: 'https://crm.example.com',
  auth: { type: 'oauth', clientId: 'client', clientSecretSealed: sealed('secret'), refreshTokenSealed: refreshToken },
  limits: LIMITS,
  changedAt: 1,
});

/** What the use cases rely on from PortalRepository; run against the fake and the real one. */
export function describePortalRepositoryContract(name: string, make: () => Portals | Promise<Portals>): void {
  describe(`PortalRepository contract: ${name}`, () => {
    let portals: Portals;
    beforeEach(async () => {
      portals = await make();
    });

    it('when a portal is created, then it is active, syncs to the built-in CRM with its sealed token, and a second one of that id is refused', async () => {
      const portalId = aPortalId();
      const created = await portals.create({ portalId, name: 'Shop', crmTokenSealed: sealed('t') });
      const expected = {
        portalId,
        name: 'Shop',
        active: true,
        builtinCrmToken: { sealed: sealed('t') },
        crmConnection: null,
        crmOAuthToken: null,
        ecommPipeline: null,
      };
      expect(created).toEqual(expected);
      expect(await portals.findById(portalId)).toEqual(expected);
      expect((await portals.list({ after: portalId - 1, limit: 1 })).results).toEqual([expected]);
      await expect(portals.create({ portalId, name: 'again', crmTokenSealed: sealed('t') })).rejects.toThrow(/duplicate key/i);
      expect(await portals.findById(aPortalId())).toBeNull();
    });

    it("when the ecommerce pipeline's ids are kept, then the portal has them for that connection; an unknown portal answers false", async () => {
      const portalId = await portals.nextPortalId();
      await portals.create({ portalId, name: 'Shop', crmTokenSealed: sealed('t') });
      const kept = { pipelineId: '123456', stageIds: { checkout_pending: '11', closedwon: '12' }, forConnection: 0 };
      expect(await portals.setEcommPipeline(portalId, kept)).toBe(true);
      const portal = (await portals.findById(portalId))!;
      expect(portal.ecommPipeline).toEqual(kept);
      expect(currentEcommPipeline(portal)).toEqual({ pipelineId: '123456', stageIds: kept.stageIds });
      expect(await portals.setEcommPipeline(portalId + 1_000_000, kept)).toBe(false);
    });

    it("when the CRM connection changes after an install, then the kept pipeline ids are not the current CRM's", async () => {
      const portalId = await portals.nextPortalId();
      await portals.create({ portalId, name: 'Shop', crmTokenSealed: sealed('t') });
      await portals.setEcommPipeline(portalId, { pipelineId: '1', stageIds: {}, forConnection: 0 });
      await portals.setCrmConnection(portalId, { kind: 'builtin', limits: null, changedAt: 1_700_000_000_000 });
      const portal = (await portals.findById(portalId))!;
      expect(portal.ecommPipeline?.pipelineId).toBe('1');
      expect(currentEcommPipeline(portal)).toBeNull();
      await portals.setEcommPipeline(portalId, { pipelineId: '2', stageIds: {}, forConnection: connectionVersionOf(portal) });
      expect(currentEcommPipeline((await portals.findById(portalId))!)?.pipelineId).toBe('2');
    });

    it('when a token or connection secret comes in clear, then it is refused', async () => {
      const portalId = aPortalId();
      await expect(portals.create({ portalId, name: 'p', crmTokenSealed: 'in-clear' })).rejects.toThrow(/sealed/);
      await portals.create({ portalId, name: 'p', crmTokenSealed: sealed('t') });
      await expect(portals.setCrmConnection(portalId, oauth('refresh-in-clear'))).rejects.toThrow(/sealed/);
      expect((await portals.findById(portalId))!.crmConnection).toBeNull();
    });

    it('when portals are listed, then they come in portal id order', async () => {
      const ids = [aPortalId(), aPortalId(), aPortalId()];
      for (const portalId of [ids[2], ids[0], ids[1]]) await portals.create({ portalId, name: `p${portalId}`, crmTokenSealed: sealed('t') });
      const listed = (await portals.list({ after: ids[0] - 1, limit: 1000 })).results.map((portal) => portal.portalId);
      expect(listed.filter((id) => ids.includes(id))).toEqual(ids);
      // A page at a time: the first page names the first of them and says more follow; the next goes on after it.
      expect(await portals.list({ after: ids[0] - 1, limit: 1 })).toMatchObject({ results: [{ portalId: ids[0] }], hasMore: true });
      expect((await portals.list({ after: ids[0], limit: 1 })).results[0].portalId).toBeGreaterThan(ids[0]);
    });

    it('when a portal is disabled and enabled, then it reads so, and an unknown portal says it was not found', async () => {
      const portalId = aPortalId();
      await portals.create({ portalId, name: 'p', crmTokenSealed: sealed('t') });
      expect(await portals.setActive(portalId, false)).toBe(true);
      expect((await portals.findById(portalId))!.active).toBe(false);
      expect(await portals.setActive(portalId, true)).toBe(true);
      expect((await portals.findById(portalId))!.active).toBe(true);
      expect(await portals.setActive(aPortalId(), false)).toBe(false);
    });

    it('when an OAuth refresh is saved, then only over the refresh token it used, and a new connection forgets the access token', async () => {
      const portalId = aPortalId();
      await portals.create({ portalId, name: 'p', crmTokenSealed: sealed('t') });
      expect(await portals.setCrmConnection(portalId, oauth(sealed('r1')))).toBe(true);
      const token = { accessTokenSealed: sealed('a2'), expiresAt: 2000, refreshedAt: 1000 };
      expect(await portals.saveOAuthRefresh(portalId, sealed('other'), sealed('r2'), token)).toBe(false);
      expect(await portals.saveOAuthRefresh(portalId, sealed('r1'), sealed('r2'), token)).toBe(true);
      const refreshed = await portals.findById(portalId);
      expect(refreshed!.crmOAuthToken).toEqual(token);
      expect(refreshed!.crmConnection).toMatchObject({ auth: { refreshTokenSealed: sealed('r2') } });
      expect(await portals.saveOAuthRefresh(portalId, sealed('r1'), sealed('r3'), token)).toBe(false);

      await portals.setCrmConnection(portalId, { kind: 'builtin', limits: null, changedAt: 2 });
      expect(await portals.findById(portalId)).toMatchObject({ crmConnection: { kind: 'builtin', limits: null, changedAt: 2 }, crmOAuthToken: null });
      expect(await portals.setCrmConnection(aPortalId(), { kind: 'builtin', limits: null, changedAt: 2 })).toBe(false);
    });

    it('when ids are handed out, then each is new and above the range picked by hand', async () => {
      const [a, b] = [await portals.nextPortalId(), await portals.nextPortalId()];
      expect(a).toBeGreaterThan(1_000_000);
      expect(b).not.toBe(a);
    });
  });
}
