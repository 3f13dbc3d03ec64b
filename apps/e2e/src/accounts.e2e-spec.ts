import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@hubspot/api-client';
import axios from 'axios';
import { aV1Contact, aV2Message, aV2Submission, type TestPortal, TestStack } from '@ecomm-sync/testing';
import { gatewayClient, requireCrmId } from './gateway-client';

/** Issue 7 end to end: application mode with OAuth tokens, and a disabled portal that loses nothing. */
describe('accounts and credentials over the running stack', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let admin: ReturnType<typeof axios.create>;

  beforeAll(async () => {
    stack = await TestStack.start();
    portal = await stack.createPortal();
    admin = axios.create({ baseURL: `${stack.gatewayUrl}/admin/v1`, headers: { authorization: `Bearer ${stack.adminToken}` } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const crmContact = async (crmId: number | null) =>
    (await axios.get(`${stack.crmUrl}/crm/v3/objects/contacts/${requireCrmId(crmId)}`, { headers: { authorization: `Bearer ${portal.crmToken}` } })).data;

  it('when an installed application syncs with its OAuth token, then its objects reach the CRM apart from the portal’s own, and its errors list with the token', async () => {
    const developer = (await admin.post('/developers', { name: 'Shop Co' })).data;
    const application = (await admin.post('/apps', { developerId: developer.developerId, name: 'Shop connector' })).data;
    const install = (await admin.post('/installs', { portalId: portal.portalId, appId: application.appId })).data;
    const settings = await axios.put(
      `${stack.gatewayUrl}/extensions/ecomm/v2/settings`,
      {
        enabled: true,
        mappings: {
          CONTACT: {
            properties: [
              { externalPropertyName: 'mail', crmPropertyName: 'email' },
              { externalPropertyName: 'first', crmPropertyName: 'firstname' },
            ],
          },
          DEAL: { properties: [{ externalPropertyName: 'stage', crmPropertyName: 'dealstage' }] },
          LINE_ITEM: {
            properties: [
              { externalPropertyName: 'order', crmPropertyName: 'hs_assoc__deal_id' },
              { externalPropertyName: 'product', crmPropertyName: 'hs_assoc__product_id' },
            ],
          },
        },
      },
      { params: { hapikey: developer.apiKey, appId: application.appId } },
    );
    expect(settings.status).toBe(200);

    const app = gatewayClient(stack, { accessToken: install.accessToken });
    // Sent before the ecommerce install: kept, recorded as PORTAL_NOT_SYNC_ENABLED, applied after it.
    await app.putV1('CONTACT', [aV1Contact({ integratorObjectId: 'app-early', propertyNameToValues: { mail: 'early@example.com' } })]);
    await app.statusWhen('CONTACT', 'app-early', (s) => s.errors.some((e) => e.type === 'PORTAL_NOT_SYNC_ENABLED'), 'the PORTAL_NOT_SYNC_ENABLED error');
    expect((await app.http.get('/v1/installs/status')).data).toEqual({ installCompleted: false, ecommSettingsEnabled: true });
    expect((await app.http.post('/v1/installs')).status).toBe(204);
    expect((await app.http.get('/v1/installs/status')).data).toEqual({ installCompleted: true, ecommSettingsEnabled: true });
    expect((await app.http.get('/v2/stores')).data).toEqual({ results: [{ id: 'default', label: 'Shop connector' }] });
    const early = await app.statusWhen(
      'CONTACT',
      'app-early',
      (s) => s.crmId !== null && s.errors.length === 0,
      'the early contact to be applied after the install',
    );
    expect((await crmContact(early.crmId)).properties).toMatchObject({ email: 'early@example.com' });

    await app.putV1('CONTACT', [aV1Contact({ integratorObjectId: 'app-c1', propertyNameToValues: { mail: 'ada@example.com', first: 'Ada' } })]);
    await app.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'app-c2', properties: { mail: 'not an e-mail' } })]));
    const synced = await app.processed('CONTACT', 'app-c1');
    expect((await crmContact(synced.crmId)).properties).toMatchObject({ email: 'ada@example.com', firstname: 'Ada' });
    const failed = await app.processed('CONTACT', 'app-c2');
    expect(failed.errors).toEqual([expect.objectContaining({ type: 'INVALID_EMAIL_ADDRESS', status: 'OPEN' })]);

    const appErrors = (await app.http.get('/v2/sync/errors')).data;
    expect(appErrors.results).toEqual([expect.objectContaining({ portalId: portal.portalId, externalObjectId: 'app-c2', type: 'INVALID_EMAIL_ADDRESS' })]);
    // The same external id in the portal's direct mode is another object: nothing was sent there.
    const direct = gatewayClient(stack, portal);
    expect((await direct.http.get('/v2/sync/status/default/CONTACT/app-c1')).status).toBe(404);

    // A refreshed token goes on working; the install's refresh token lasts, as the vendor's: the answer carries it again.
    const refreshed = await axios.post(
      `${stack.gatewayUrl}/oauth/v1/token`,
      new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: application.clientId,
        client_secret: application.clientSecret,
        refresh_token: install.refreshToken,
      }),
    );
    expect(refreshed.data.refresh_token).toBe(install.refreshToken);
    const next = gatewayClient(stack, { accessToken: refreshed.data.access_token });
    await next.putV1('CONTACT', [aV1Contact({ integratorObjectId: 'app-c3', propertyNameToValues: { mail: 'alan@example.com' } })]);
    expect((await next.processed('CONTACT', 'app-c3')).crmId).not.toBeNull();
    // The vendor's SDK, unmodified, refreshes again with the refresh token the install gave, as the vendor's documentation tells an application to.
    const sdkTokens = new Client({ basePath: stack.gatewayUrl, numberOfApiCallRetries: 0 }).oauth.tokensApi;
    const viaSdk = await sdkTokens.create('refresh_token', undefined, undefined, application.clientId, application.clientSecret, install.refreshToken);
    expect(viaSdk).toMatchObject({ tokenType: 'bearer', expiresIn: 1800, refreshToken: install.refreshToken });
    expect((await gatewayClient(stack, { accessToken: viaSdk.accessToken }).http.get('/v2/sync/errors')).status).toBe(200);
  });

  it('when the CLI makes a developer and an application, lists and revokes a key, then the API agrees', async () => {
    const cli = async (...args: string[]) => {
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, '../../../dist/apps/cli/main.js'), 'admin', ...args], {
        env: { PATH: process.env.PATH, GATEWAY_URL: stack.gatewayUrl, ADMIN_TOKEN: stack.adminToken },
      });
      return stdout.trim() === 'done' ? 'done' : JSON.parse(stdout);
    };
    const developer = await cli('developers', 'create', 'Terminal dev');
    const application = await cli('apps', 'create', String(developer.developerId), 'Terminal app');
    expect(application).toEqual({ appId: expect.any(String), clientId: expect.any(String), clientSecret: expect.any(String) });
    const errors = () =>
      axios.get(`${stack.gatewayUrl}/extensions/ecomm/v2/sync/errors/app/${application.appId}`, {
        params: { hapikey: developer.apiKey },
        validateStatus: () => true,
      });
    expect((await errors()).status).toBe(200);
    const [key] = (await cli('credentials', 'list', 'developer', String(developer.developerId))).results;
    expect(key).toMatchObject({ kind: 'developer-key', developerId: developer.developerId });
    expect(await cli('credentials', 'revoke', key.credentialId)).toBe('done');
    expect((await errors()).status).toBe(401);
    await expect(cli('credentials', 'revoke', key.credentialId)).rejects.toThrow(/404: No credential/);
  });

  it('when a disabled portal is sent messages, then they are recorded as INACTIVE_PORTAL and applied once it is enabled again', async () => {
    const client = gatewayClient(stack, portal);
    expect((await admin.post(`/portals/${portal.portalId}/disable`)).status).toBe(204);
    await client.putV1('CONTACT', [
      aV1Contact({ integratorObjectId: 'while-disabled', propertyNameToValues: { email: 'grace@example.com', firstname: 'Grace' } }),
    ]);
    const held = await client.statusWhen(
      'CONTACT',
      'while-disabled',
      (status) => status.errors.some((error) => error.type === 'INACTIVE_PORTAL'),
      'the INACTIVE_PORTAL error',
    );
    expect(held.crmId).toBeNull();
    const listed = (await client.http.get('/v2/sync/errors/portal', { params: { errorType: 'INACTIVE_PORTAL' } })).data.results;
    expect(listed).toEqual([expect.objectContaining({ externalObjectId: 'while-disabled', status: 'OPEN' })]);

    expect((await admin.post(`/portals/${portal.portalId}/enable`)).status).toBe(204);
    const applied = await client.statusWhen(
      'CONTACT',
      'while-disabled',
      (status) => status.crmId !== null && status.errors.length === 0,
      'the contact to be applied after enabling',
    );
    expect((await crmContact(applied.crmId)).properties).toMatchObject({ email: 'grace@example.com', firstname: 'Grace' });
    const resolved = (await client.http.get('/v2/sync/errors/portal', { params: { errorType: 'INACTIVE_PORTAL', includeResolved: 'true' } })).data.results;
    expect(resolved).toEqual([expect.objectContaining({ externalObjectId: 'while-disabled', status: 'RESOLVED' })]);
  });
});
