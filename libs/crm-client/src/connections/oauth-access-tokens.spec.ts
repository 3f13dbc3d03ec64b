import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretBox, sealedFor, type Portal, type PortalRepository, type StoredOAuthToken } from '@ecomm-sync/data-access';
import { OAuthAccessTokens } from './oauth-access-tokens';

const PORTAL = 42;
const CLIENT = 'client-1';
const box = new SecretBox('oauth-access-tokens-spec-key');
const sealRefresh = (token: string) => box.seal(token, sealedFor.crmConnection(PORTAL, 'refresh-token'));

/** A hosted CRM's token endpoint that rotates refresh tokens: each grant answers the next one and spends the one used. */
async function rotatingTokenEndpoint(onGrant: () => void, rotates = () => true) {
  let issued = 1;
  const used: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      used.push(new URLSearchParams(body).get('refresh_token') ?? '');
      onGrant();
      issued++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: `access-${issued}`, ...(rotates() ? { refresh_token: `refresh-${issued}` } : {}), expires_in: 1800 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, used, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The portal's document, changed by compare and set on the stored refresh token's text, as PortalRepository does. */
function portalStore(baseUrl: string) {
  const portal = {
    portalId: PORTAL,
    crmConnection: {
      kind: 'hosted',
      baseUrl,
      auth: {
        type: 'oauth',
        clientId: CLIENT,
        clientSecretSealed: box.seal('secret', sealedFor.crmConnection(PORTAL, 'client-secret')),
        refreshTokenSealed: sealRefresh('refresh-1'),
      },
    },
    crmOAuthToken: null as StoredOAuthToken | null,
  };
  const auth = portal.crmConnection.auth;
  let failWrites = 0;
  const portals: Pick<PortalRepository, 'findById' | 'saveOAuthRefresh'> = {
    findById: async () => structuredClone(portal) as unknown as Portal,
    saveOAuthRefresh: async (_portalId, usedSealed, refreshTokenSealed, token) => {
      if (failWrites > 0 && failWrites--) throw new Error('not primary');
      if (auth.refreshTokenSealed !== usedSealed) return false;
      auth.refreshTokenSealed = refreshTokenSealed;
      portal.crmOAuthToken = token;
      return true;
    },
  };
  return {
    portals,
    storedRefreshToken: () => box.open(auth.refreshTokenSealed, sealedFor.crmConnection(PORTAL, 'refresh-token')),
    storedText: () => auth.refreshTokenSealed,
    /** What `ecomm-sync reseal` does: the same token, sealed again (a new text). */
    reseal: () => void (auth.refreshTokenSealed = sealRefresh(box.open(auth.refreshTokenSealed, sealedFor.crmConnection(PORTAL, 'refresh-token')))),
    failNextWrites: (count: number) => void (failWrites = count),
  };
}

describe('OAuthAccessTokens with a CRM that rotates refresh tokens', () => {
  let endpoint: Awaited<ReturnType<typeof rotatingTokenEndpoint>>;
  let store: ReturnType<typeof portalStore>;
  let duringGrant: () => void;
  let rotates: boolean;

  beforeEach(async () => {
    duringGrant = () => undefined;
    rotates = true;
    endpoint = await rotatingTokenEndpoint(
      () => duringGrant(),
      () => rotates,
    );
    store = portalStore(endpoint.baseUrl);
  });

  afterEach(() => endpoint.close());

  const tokens = () =>
    new OAuthAccessTokens(PORTAL, endpoint.baseUrl, CLIENT, {
      portals: store.portals,
      secretBox: box,
      clock: Date.now,
      refreshMarginMs: 60_000,
      timeoutMs: 2_000,
    });

  it('when the refresh token is sealed again (reseal) while a refresh is under way, then the rotated token is still stored, and the next refresh uses it', async () => {
    duringGrant = () => store.reseal();

    expect(await tokens().get()).toBe('access-2');

    expect(store.storedRefreshToken()).toBe('refresh-2');
    duringGrant = () => undefined;
    await tokens().renew('access-2');
    expect(endpoint.used).toEqual(['refresh-1', 'refresh-2']);
  });

  it('when a CRM that does not rotate answers while a reseal seals the refresh token again, then the resealed text stays', async () => {
    rotates = false;
    let resealed = '';
    duringGrant = () => {
      store.reseal();
      resealed = store.storedText();
    };

    expect(await tokens().get()).toBe('access-2');

    expect(store.storedText()).toBe(resealed);
    expect(store.storedRefreshToken()).toBe('refresh-1');
  });

  it('when storing the refresh fails twice, then the third write keeps the rotated token', async () => {
    store.failNextWrites(2);

    expect(await tokens().get()).toBe('access-2');

    expect(store.storedRefreshToken()).toBe('refresh-2');
  });

  it('when storing the refresh fails every time, then the error says a rotated refresh token may be lost', async () => {
    store.failNextWrites(3);

    await expect(tokens().get()).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/could not be stored \(Error: not primary\); a rotated refresh token may be lost/),
    });
  });
});

describe('OAuthAccessTokens when the token endpoint does not grant', () => {
  it.each([
    [400, 401, 'invalid_grant: the app was uninstalled or its refresh token replaced'],
    [401, 401, 'the client is not known'],
    [403, 401, 'the client is not allowed'],
    [404, 503, 'a wrong address'],
    [429, 429, 'a rate limit'],
    [500, 500, 'a failure of the CRM'],
  ])('when it answers %i, then the refresh fails with %i (%s)', async (answered, status) => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(answered, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const refused = await new OAuthAccessTokens(PORTAL, baseUrl, CLIENT, {
        portals: portalStore(baseUrl).portals,
        secretBox: box,
        clock: Date.now,
        refreshMarginMs: 60_000,
        timeoutMs: 2_000,
      })
        .get()
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ status, category: 'CRM_AUTH', refusesCredentials: status === 401 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
