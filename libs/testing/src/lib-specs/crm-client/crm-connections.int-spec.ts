import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { connectDatabase, SecretBox, sealedFor, type Database, type Portal } from '@ecomm-sync/data-access';
import { testInfrastructure, uniqueName, waitFor } from '../../support';
import { CrmConnections, crmAccountKey } from '@ecomm-sync/crm-client';

/**
 * A hosted CRM in the test: the token endpoint rotates refresh tokens (each works once) and issues
 * access tokens; the objects API accepts only the newest access token, or answers 401.
 */
class HostedCrm {
  server!: Server;
  refreshToken = 'ort-initial-0001';
  accessToken: string | null = null;
  expiresIn = 1800;
  grants: { clientId: string; clientSecret: string; refreshToken: string }[] = [];
  seenTokens: string[] = [];
  /** The objects API answers 401 whatever the token (a connection whose app lost its scopes). */
  refuseEveryToken = false;
  private issued = 0;

  async start(): Promise<string> {
    const app = express();
    app.post('/oauth/v1/token', express.urlencoded({ extended: false }), (req, res) => {
      const { grant_type, client_id, client_secret, refresh_token } = req.body as Record<string, string>;
      this.grants.push({ clientId: client_id, clientSecret: client_secret, refreshToken: refresh_token });
      if (grant_type !== 'refresh_token' || client_id !== 'client-1' || client_secret !== 'client-secret-1')
        return void res.status(401).json({ error: 'invalid_client' });
      if (refresh_token !== this.refreshToken) return void res.status(400).json({ error: 'invalid_grant' });
      this.issued++;
      this.refreshToken = `ort-rotated-${this.issued}`;
      this.accessToken = `oat-${this.issued}`;
      res.json({ access_token: this.accessToken, refresh_token: this.refreshToken, expires_in: this.expiresIn, token_type: 'bearer' });
    });
    app.get('/crm/v3/pipelines/deals', (req, res) => {
      const token = (req.header('authorization') ?? '').replace(/^Bearer /, '');
      this.seenTokens.push(token);
      if (this.refuseEveryToken || token !== this.accessToken) return void res.status(401).json({ message: 'expired or unknown token' });
      res.json({ results: [] });
    });
    this.server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server.once('listening', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The CRM forgets the access token it issued (as a revocation or its own clock would). */
  revokeAccessToken(): void {
    this.accessToken = 'oat-revoked-by-the-crm';
  }
}

describe('CRM connections (the resolver against the real MongoDB-wire server and a hosted CRM on port 0)', () => {
  const box = new SecretBox('crm-connections-test-key');
  let database: Database;
  let crm: HostedCrm;
  let baseUrl: string;
  let nextPortal = 5000;
  let now = 1_000_000;

  beforeAll(async () => {
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName('conns').replace(/-/g, '_'));
  });

  beforeEach(async () => {
    crm = new HostedCrm();
    baseUrl = await crm.start();
  });

  afterEach(async () => {
    await new Promise((resolve) => crm.server.close(resolve));
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  const portals = () => database.repositories.portals;
  const raw = (portalId: number) => database.connection.collection('portals').findOne({ portalId });
  const connections = (budgets: string[] = []) =>
    new CrmConnections({
      portals: portals(),
      secretBox: box,
      builtinBaseUrl: 'http://127.0.0.1:1',
      // The test's hosted CRM listens on loopback http.
      allowHttpHosted: true,
      clock: () => now,
      refreshMarginMs: 60_000,
      timeoutMs: 5000,
      budgetFor: (key, _limits, kind) => void budgets.push(`${key} (${kind})`),
    });
  const load = async (portalId: number): Promise<Portal> => (await portals().findById(portalId))!;

  async function oauthPortal(resolver: CrmConnections): Promise<number> {
    const portalId = nextPortal++;
    await portals().create({ portalId, name: 'p', crmTokenSealed: box.seal('crm-builtin-token', sealedFor.builtinCrmToken(portalId)) });
    await resolver.set(portalId, {
      kind: 'hosted',
      baseUrl,
      auth: { type: 'oauth', clientId: 'client-1', clientSecret: 'client-secret-1', refreshToken: crm.refreshToken },
      tier: 'professional',
    });
    return portalId;
  }

  describe('stored secrets', () => {
    it('when a hosted connection is set, then no secret is in the stored document and the view shows public ids only', async () => {
      const resolver = connections();
      const portalId = nextPortal++;
      await portals().create({ portalId, name: 'p', crmTokenSealed: box.seal('crm-builtin-secret-token', sealedFor.builtinCrmToken(portalId)) });

      const view = await resolver.set(portalId, {
        kind: 'hosted',
        baseUrl: `${baseUrl}/`,
        auth: { type: 'oauth', clientId: 'client-1', clientSecret: 'client-secret-1', refreshToken: 'ort-secret-refresh' },
        limits: { burstPer10s: 150 },
      });

      const document = JSON.stringify(await raw(portalId));
      for (const secret of ['crm-builtin-secret-token', 'client-secret-1', 'ort-secret-refresh']) {
        expect(document).not.toContain(secret);
        expect(JSON.stringify(view)).not.toContain(secret);
      }
      expect(view).toEqual({
        portalId,
        kind: 'hosted',
        baseUrl,
        authType: 'oauth',
        clientId: 'client-1',
        credentialId: expect.stringMatching(/^crmc-[0-9a-f]{16}$/),
        // An OAuth connection has no daily cap unless given one: the vendor's OAuth calls have none.
        limits: { burstPer10s: 150, dailyCap: null, timeZone: 'UTC', searchPerSecond: 4 },
        lastTokenRefreshAt: null,
        changedAt: new Date(now).toISOString(),
      });
      expect(resolver.connectionOf(await load(portalId))).toMatchObject({ auth: { clientSecret: 'client-secret-1', refreshToken: 'ort-secret-refresh' } });
    });

    it('when a token in clear cannot be sealed, then the boot migration goes past it and ends, sealing the others', async () => {
      const resolver = connections();
      const [broken, fine] = [nextPortal++, nextPortal++];
      await database.connection.collection('portals').insertMany([
        { portalId: broken, name: 'old', active: true, crmToken: null },
        { portalId: fine, name: 'old', active: true, crmToken: `crm-legacy-${fine}` },
      ]);

      expect(await resolver.sealPlaintextTokens()).toBeGreaterThanOrEqual(1);

      expect((await raw(fine))?.crmToken).toBeUndefined();
      expect(await raw(broken)).toMatchObject({ crmToken: null });
    });

    it('when a document holds its built-in token in clear, then the boot migration seals it, and so does the first use of a portal missed by it', async () => {
      const resolver = connections();
      const [first, second] = [nextPortal++, nextPortal++];
      for (const portalId of [first, second])
        await database.connection.collection('portals').insertOne({ portalId, name: 'old', active: true, crmToken: `crm-legacy-${portalId}` });

      expect(await resolver.sealPlaintextTokens()).toBe(2);
      await database.connection
        .collection('portals')
        .updateOne({ portalId: second }, { $set: { crmToken: `crm-legacy-${second}` }, $unset: { crmTokenSealed: '' } });
      const legacy = await load(second);
      expect(resolver.builtinToken(legacy)).toBe(`crm-legacy-${second}`);
      resolver.clientFor(legacy);

      for (const portalId of [first, second]) {
        // The first use seals in the background: wait for it.
        await waitFor(async () => (await raw(portalId))?.crmToken === undefined, { timeoutMs: 5000, message: `portal ${portalId} to hold no token in clear` });
        const document = await raw(portalId);
        expect(JSON.stringify(document)).not.toContain(`crm-legacy-${portalId}`);
        expect(resolver.builtinToken(await load(portalId))).toBe(`crm-legacy-${portalId}`);
      }
    });

    it('when a connection is set, then the plaintext built-in token is sealed in the same step', async () => {
      const resolver = connections();
      const portalId = nextPortal++;
      await database.connection.collection('portals').insertOne({ portalId, name: 'old', active: true, crmToken: 'crm-legacy-set' });

      await resolver.set(portalId, { kind: 'builtin', tier: 'starter' });

      const document = await raw(portalId);
      expect(document).not.toHaveProperty('crmToken');
      expect(document!.crmConnection).toMatchObject({ kind: 'builtin', limits: { burstPer10s: 100, dailyCap: 250_000 } });
    });
  });

  describe('OAuth', () => {
    it('when the first request is made, then an access token is obtained with the refresh-token grant and the rotated refresh token is stored sealed', async () => {
      const resolver = connections();
      const portalId = await oauthPortal(resolver);

      await resolver.clientFor(await load(portalId)).listDealPipelines();

      expect(crm.grants).toEqual([{ clientId: 'client-1', clientSecret: 'client-secret-1', refreshToken: 'ort-initial-0001' }]);
      expect(crm.seenTokens).toEqual(['oat-1']);
      const document = await raw(portalId);
      expect(JSON.stringify(document)).not.toMatch(/ort-|oat-|client-secret-1/);
      const portal = await load(portalId);
      expect(resolver.connectionOf(portal)).toMatchObject({ auth: { refreshToken: 'ort-rotated-1' } });
      expect(box.open(portal.crmOAuthToken!.accessTokenSealed, sealedFor.crmConnection(portalId, 'access-token'))).toBe('oat-1');
      expect(resolver.view(portal).lastTokenRefreshAt).toBe(new Date(now).toISOString());
    });

    it('when the token is about to expire, then it is refreshed before the request; while it is fresh, it is reused', async () => {
      const resolver = connections();
      const portalId = await oauthPortal(resolver);
      const client = resolver.clientFor(await load(portalId));
      await client.listDealPipelines();

      now += (crm.expiresIn - 120) * 1000; // two minutes left: more than the margin
      await client.listDealPipelines();
      expect(crm.grants).toHaveLength(1);

      now += 90_000; // thirty seconds left: within the margin
      await client.listDealPipelines();

      expect(crm.grants.map((grant) => grant.refreshToken)).toEqual(['ort-initial-0001', 'ort-rotated-1']);
      expect(crm.seenTokens).toEqual(['oat-1', 'oat-1', 'oat-2']);
    });

    it('when the CRM answers 401, then the token is refreshed once and the request is sent once more', async () => {
      const resolver = connections();
      const portalId = await oauthPortal(resolver);
      const client = resolver.clientFor(await load(portalId));
      await client.listDealPipelines();

      crm.revokeAccessToken();
      await expect(client.listDealPipelines()).resolves.toEqual([]);

      expect(crm.grants).toHaveLength(2);
      expect(crm.seenTokens).toEqual(['oat-1', 'oat-1', 'oat-2']);
      expect(box.open((await load(portalId)).crmOAuthToken!.accessTokenSealed, sealedFor.crmConnection(portalId, 'access-token'))).toBe('oat-2');
    });

    it('when the fresh token is refused as well, then the request fails with the 401 after one retry', async () => {
      const resolver = connections();
      const portalId = await oauthPortal(resolver);
      const client = resolver.clientFor(await load(portalId));
      await client.listDealPipelines();
      crm.refuseEveryToken = true;

      await expect(client.listDealPipelines()).rejects.toMatchObject({ status: 401 });
      expect(crm.grants).toHaveLength(2);
      expect(crm.seenTokens).toEqual(['oat-1', 'oat-1', 'oat-2']);
    });

    it('when another replica refreshed first (and so spent the refresh token), then this one takes the token it stored', async () => {
      const portalId = await oauthPortal(connections());
      const replicaA = connections().clientFor(await load(portalId));
      const replicaB = connections().clientFor(await load(portalId));

      await replicaA.listDealPipelines();
      await replicaB.listDealPipelines();

      expect(crm.grants).toHaveLength(1);
      expect(crm.seenTokens).toEqual(['oat-1', 'oat-1']);
    });

    it('when the connection is set again, then the resolver builds a new client; a budget is asked for per account, with how it is reached', async () => {
      const budgets: string[] = [];
      const resolver = connections(budgets);
      const portalId = await oauthPortal(resolver);
      const before = resolver.clientFor(await load(portalId));
      expect(resolver.clientFor(await load(portalId))).toBe(before);

      await resolver.set(portalId, { kind: 'hosted', baseUrl, auth: { type: 'private-app', token: 'pat-0123456789' } });

      expect(resolver.clientFor(await load(portalId))).not.toBe(before);
      await resolver.set(portalId, { kind: 'builtin', limits: { burstPer10s: 100, dailyCap: null, timeZone: 'UTC', searchPerSecond: 4 } });
      resolver.clientFor(await load(portalId));
      // The built-in CRM's budget is asked for as nearby: its margin is shorter (decision 20).
      // An OAuth app's budget is its own in each portal (the vendor: "per app per portal").
      expect(budgets).toEqual([
        `hosted:${baseUrl}:app:client-1:${portalId} (hosted)`,
        `hosted:${baseUrl}:${portalId} (hosted)`,
        `builtin:${portalId} (builtin)`,
      ]);
      expect(crmAccountKey(7, { kind: 'builtin', limits: null })).toBe('builtin:7');
    });
  });
});
