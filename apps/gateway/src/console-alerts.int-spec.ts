import request from 'supertest';
import { sealedFor, SecretBox } from '@ecomm-sync/data-access';
import { gatewayCredentials, TEST_SECRETS_KEY } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8501;
const OTHER = 8502;

/** Issue 29, item 1: alert rules and destinations through the console API, with the console's credential rule. */
describe('the console alerts API', () => {
  let fixture: GatewayFixture;
  const key = 'pk-alerts-own';
  /** Two integrators' applications, both installed in PORTAL. */
  const integrator = { apiKey: '', appId: '' };
  const otherIntegrator = { apiKey: '', appId: '' };
  const as = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, query = '') => request(fixture.app)[method](`${path}?hapikey=${key}${query}`);

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-console-alerts');
    const credentials = gatewayCredentials(fixture.app, fixture.database.repositories);
    await credentials.portal(PORTAL, key);
    await credentials.portal(OTHER, 'pk-alerts-other');
    for (const [held, name] of [
      [integrator, 'Connector'],
      [otherIntegrator, 'Other connector'],
    ] as const) {
      const developer = await credentials.developer(name);
      held.apiKey = developer.apiKey;
      held.appId = (await credentials.app(developer.developerId, name)).appId;
      await credentials.install(PORTAL, held.appId);
    }
  });
  afterAll(() => fixture.close());

  it('when a customer opens the alerts then the install rules (CRM connection failing, import failed) are there, ok and enabled', async () => {
    const { body } = await as('get', '/console/api/v1/alerts').expect(200);

    expect(
      body.rules.map((rule: { name: string; isDefault: boolean; enabled: boolean; state: { status: string } }) => [
        rule.name,
        rule.isDefault,
        rule.enabled,
        rule.state.status,
      ]),
    ).toEqual([
      ['CRM connection failing', true, true, 'ok'],
      ['Import failed', true, true, 'ok'],
    ]);
    expect(body.destinations).toEqual([]);
    expect(body.notices).toEqual([]);
  });

  it('when a customer adds, edits and deletes a rule then each answer says so, a store of no data of its own is refused, and a default rule can be disabled but not deleted', async () => {
    const rule = { name: 'Bad e-mails', condition: { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 10 } };
    const created = (await as('post', '/console/api/v1/alerts/rules').send(rule).expect(201)).body;
    expect(created).toMatchObject({
      portalId: PORTAL,
      appId: null,
      storeId: null,
      enabled: true,
      isDefault: false,
      condition: rule.condition,
      state: { status: 'ok' },
    });

    const refused = await as('put', `/console/api/v1/alerts/rules/${created.id}`)
      .send({ ...rule, storeId: 'web' })
      .expect(400);
    expect(refused.body.message).toBe(
      `storeId "web" names no store of portal ${PORTAL}'s own data: a rule watches only its own tenant's data, so a store it has neither defined nor sent data to would never fire it. Use one of its stores (the console overview lists them: GET /console/api/v1/overview with the same credential), or leave storeId out to watch every store`,
    );
    await fixture.database.repositories.stores.upsert({ portalId: PORTAL, appId: null }, { id: 'web', label: 'Web shop' });
    const edited = (
      await as('put', `/console/api/v1/alerts/rules/${created.id}`)
        .send({ ...rule, storeId: 'web', condition: { kind: 'sync-lag', minutes: 30 } })
        .expect(200)
    ).body;
    expect(edited).toMatchObject({ id: created.id, storeId: 'web', condition: { kind: 'sync-lag', minutes: 30 } });

    await as('delete', `/console/api/v1/alerts/rules/${created.id}`).expect(204);
    await as('delete', `/console/api/v1/alerts/rules/${created.id}`).expect(404);

    const crmRule = (await as('get', '/console/api/v1/alerts').expect(200)).body.rules[0];
    expect((await as('delete', `/console/api/v1/alerts/rules/${crmRule.id}`).expect(409)).body.message).toContain('disable it instead');
    const disabled = { name: crmRule.name, enabled: false, condition: crmRule.condition };
    expect((await as('put', `/console/api/v1/alerts/rules/${crmRule.id}`).send(disabled).expect(200)).body).toMatchObject({ enabled: false, isDefault: true });
  });

  it('when a rule is switched off after another edit was saved, then the edit stays and only enabled changes; a switch with anything else is a 400', async () => {
    const read = (
      await as('post', '/console/api/v1/alerts/rules')
        .send({ name: 'Lag', condition: { kind: 'sync-lag', minutes: 30 } })
        .expect(201)
    ).body;
    await as('put', `/console/api/v1/alerts/rules/${read.id}`)
      .send({ name: 'Lag, edited in another tab', condition: { kind: 'sync-lag', minutes: 90 } })
      .expect(200);

    const switched = (await as('patch', `/console/api/v1/alerts/rules/${read.id}`).send({ enabled: false }).expect(200)).body;

    expect(switched).toMatchObject({ id: read.id, enabled: false, name: 'Lag, edited in another tab', condition: { kind: 'sync-lag', minutes: 90 } });
    const stored = (await as('get', '/console/api/v1/alerts').expect(200)).body.rules.find((rule: { id: string }) => rule.id === read.id);
    expect(stored).toMatchObject({ enabled: false, name: 'Lag, edited in another tab' });
    for (const [body, message] of [
      [{ enabled: 'no' }, 'body/enabled must be boolean'],
      [{ enabled: true, name: 'x' }, 'body has an unknown field "name"'],
      [{}, 'body is missing the required field "enabled"'],
    ] as const)
      expect((await as('patch', `/console/api/v1/alerts/rules/${read.id}`).send(body).expect(400)).body.message).toBe(message);
    await as('patch', '/console/api/v1/alerts/rules/no-such-rule').send({ enabled: true }).expect(404);
  });

  it.each([
    [
      'an unknown kind',
      { name: 'x', condition: { kind: 'weather' } },
      'body/condition/kind must be one of open-errors, sync-lag, crm-connection, import-failed, webhook-failed, got "weather"',
    ],
    [
      'an unknown error type',
      { name: 'x', condition: { kind: 'open-errors', errorType: 'NOPE', measure: 'count', threshold: 1 } },
      expect.stringMatching(/^body\/condition\/errorType must be one of INACTIVE_PORTAL, /),
    ],
    [
      'a negative threshold',
      { name: 'x', condition: { kind: 'open-errors', errorType: null, measure: 'share', threshold: -1 } },
      'body/condition/threshold must be >= 0',
    ],
    ['no name', { condition: { kind: 'import-failed' } }, 'body is missing the required field "name"'],
  ])('when a rule with %s is sent then it answers 400 naming the problem', async (_case, body, message) => {
    const res = await as('post', '/console/api/v1/alerts/rules').send(body).expect(400);
    expect(res.body).toEqual({ status: 'error', message, requestId: expect.any(String) });
  });

  it('when a webhook destination is added then its signing secret is answered once and it and the URL are stored sealed for it alone', async () => {
    const added = (await as('post', '/console/api/v1/alerts/destinations').send({ kind: 'webhook', url: 'https://hooks.shop.example/alerts' }).expect(201))
      .body;
    expect(added).toMatchObject({ kind: 'webhook', target: 'https://hooks.shop.example/…erts', signingSecret: expect.stringMatching(/^whsec-/) });

    const stored = (await fixture.database.repositories.alertDestinations.list({ portalId: PORTAL, appId: null })).find((d) => d.id === added.id)!;
    expect(stored.sealedSecret).not.toContain(added.signingSecret);
    expect(new SecretBox(TEST_SECRETS_KEY).open(stored.sealedSecret!, sealedFor.alertDestinationSecret(added.id))).toBe(added.signingSecret);
    expect(stored.target).not.toContain('hooks.shop.example');
    expect(new SecretBox(TEST_SECRETS_KEY).open(stored.target, sealedFor.alertDestinationUrl(added.id))).toBe('https://hooks.shop.example/alerts');
    const listed = (await as('get', '/console/api/v1/alerts').expect(200)).body.destinations;
    expect(listed).toEqual([{ id: added.id, kind: 'webhook', target: 'https://hooks.shop.example/…erts', label: '', createdAt: expect.any(Number) }]);
  });

  it('when an e-mail and a Slack destination are added and one removed then the list follows, and a bad address answers 400', async () => {
    const mail = (await as('post', '/console/api/v1/alerts/destinations').send({ kind: 'email', email: 'ops@shop.example' }).expect(201)).body;
    const slack = (await as('post', '/console/api/v1/alerts/destinations').send({ kind: 'slack', url: 'https://hooks.slack.example/T1/B2' }).expect(201)).body;
    expect(slack.signingSecret).toBeUndefined();
    const badMail = await as('post', '/console/api/v1/alerts/destinations').send({ kind: 'email', email: 'not an address' }).expect(400);
    expect(badMail.body.message).toBe('body/email must be an e-mail address (name@example.com) of at most 254 characters');
    const badUrl = await as('post', '/console/api/v1/alerts/destinations').send({ kind: 'webhook', url: 'ftp://x.example/a' }).expect(400);
    expect(badUrl.body.message).toBe('body/url must be an http or https URL of at most 2000 characters');

    await as('delete', `/console/api/v1/alerts/destinations/${mail.id}`).expect(204);

    const kinds = (await as('get', '/console/api/v1/alerts').expect(200)).body.destinations.map((d: { kind: string }) => d.kind);
    expect(kinds).toContain('slack');
    expect(kinds).not.toContain('email');
  });

  it("when another portal's key asks for this portal's alerts, or removes its rule, then it answers 403 and 404", async () => {
    await request(fixture.app).get(`/console/api/v1/alerts?hapikey=pk-alerts-other&portalId=${PORTAL}`).expect(403);
    const own = (await as('get', '/console/api/v1/alerts').expect(200)).body.rules[0];
    await request(fixture.app).delete(`/console/api/v1/alerts/rules/${own.id}?hapikey=pk-alerts-other`).expect(404);
    expect(
      (await request(fixture.app).get('/console/api/v1/alerts?hapikey=pk-alerts-other').expect(200)).body.rules.map((r: { id: string }) => r.id),
    ).not.toContain(own.id);
  });

  it("when a portal key names an application twice in the query, then it is a 400, not a rule of the portal's own", async () => {
    const twice = `appId=${integrator.appId}&appId=${integrator.appId}`;
    const res = await as('post', '/console/api/v1/alerts/rules', `&${twice}`)
      .send({ name: 'Twice', condition: { kind: 'import-failed' } })
      .expect(400);

    expect(res.body.message).toBe('Query parameter appId must be given once, as text');
    expect((await as('get', '/console/api/v1/alerts').expect(200)).body.rules.map((r: { name: string }) => r.name)).not.toContain('Twice');
  });

  /** A developer key's call for its application in `portalId` (the console's integrator pages). */
  const asApp = (app: { apiKey: string; appId: string }, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, portalId = PORTAL) =>
    request(fixture.app)[method](`${path}?hapikey=${app.apiKey}&appId=${app.appId}&portalId=${portalId}`);
  const ids = (listed: { id: string }[]) => listed.map((item) => item.id);

  it("when an integrator adds a rule and a destination in a portal that installed its application then they are its application's, apart from the portal's own", async () => {
    const portalOwn = (
      await as('post', '/console/api/v1/alerts/rules')
        .send({ name: 'Portal lag', condition: { kind: 'sync-lag', minutes: 5 } })
        .expect(201)
    ).body;
    const portalRules = ids((await as('get', '/console/api/v1/alerts').expect(200)).body.rules);

    const defaults = (await asApp(integrator, 'get', '/console/api/v1/alerts').expect(200)).body;
    expect(defaults.rules.map((rule: { name: string; appId: string }) => [rule.name, rule.appId])).toEqual([
      ['CRM connection failing', integrator.appId],
      ['Import failed', integrator.appId],
    ]);
    const rule = { name: 'Connector lag', condition: { kind: 'sync-lag', minutes: 20 } };
    const created = (await asApp(integrator, 'post', '/console/api/v1/alerts/rules').send(rule).expect(201)).body;
    expect(created).toMatchObject({ portalId: PORTAL, appId: integrator.appId, name: 'Connector lag', isDefault: false });
    const destination = (
      await asApp(integrator, 'post', '/console/api/v1/alerts/destinations').send({ kind: 'email', email: 'oncall@connector.example' }).expect(201)
    ).body;

    const seen = (await asApp(integrator, 'get', '/console/api/v1/alerts').expect(200)).body;
    expect(seen.rules.map((r: { name: string }) => r.name)).toEqual(['CRM connection failing', 'Import failed', 'Connector lag']);
    expect(ids(seen.rules)).not.toContain(portalOwn.id);
    expect(ids(seen.rules).filter((id) => portalRules.includes(id))).toEqual([]);
    expect(ids(seen.destinations)).toEqual([destination.id]);
    const portalView = (await as('get', '/console/api/v1/alerts').expect(200)).body;
    expect(ids(portalView.rules)).not.toContain(created.id);
    expect(ids(portalView.destinations)).not.toContain(destination.id);
  });

  it("when an integrator edits or deletes the portal's own rule or destination, or another application's, then it answers 404 and nothing changes", async () => {
    const portalRule = (
      await as('post', '/console/api/v1/alerts/rules')
        .send({ name: 'Portal only', condition: { kind: 'import-failed' } })
        .expect(201)
    ).body;
    const portalDestination = (await as('post', '/console/api/v1/alerts/destinations').send({ kind: 'email', email: 'shop@shop.example' }).expect(201)).body;
    const appRule = (
      await asApp(integrator, 'post', '/console/api/v1/alerts/rules')
        .send({ name: 'App only', condition: { kind: 'import-failed' } })
        .expect(201)
    ).body;
    const appDestination = (
      await asApp(integrator, 'post', '/console/api/v1/alerts/destinations').send({ kind: 'email', email: 'app@connector.example' }).expect(201)
    ).body;
    const renamed = { name: 'Taken over', condition: { kind: 'import-failed' } };

    await asApp(integrator, 'put', `/console/api/v1/alerts/rules/${portalRule.id}`).send(renamed).expect(404);
    await asApp(integrator, 'patch', `/console/api/v1/alerts/rules/${portalRule.id}`).send({ enabled: false }).expect(404);
    await asApp(integrator, 'delete', `/console/api/v1/alerts/rules/${portalRule.id}`).expect(404);
    await asApp(integrator, 'delete', `/console/api/v1/alerts/destinations/${portalDestination.id}`).expect(404);
    await asApp(otherIntegrator, 'put', `/console/api/v1/alerts/rules/${appRule.id}`).send(renamed).expect(404);
    await asApp(otherIntegrator, 'patch', `/console/api/v1/alerts/rules/${appRule.id}`).send({ enabled: false }).expect(404);
    await asApp(otherIntegrator, 'delete', `/console/api/v1/alerts/rules/${appRule.id}`).expect(404);
    await asApp(otherIntegrator, 'delete', `/console/api/v1/alerts/destinations/${appDestination.id}`).expect(404);
    const others = (await asApp(otherIntegrator, 'get', '/console/api/v1/alerts').expect(200)).body;
    expect(ids(others.rules)).not.toContain(appRule.id);
    expect(ids(others.destinations)).not.toContain(appDestination.id);
    // Its application in a portal that did not install it: not found, as for any other tenant.
    await asApp(integrator, 'get', '/console/api/v1/alerts', OTHER).expect(404);
    await asApp(integrator, 'post', '/console/api/v1/alerts/rules', OTHER).send(renamed).expect(404);

    const portalView = (await as('get', '/console/api/v1/alerts').expect(200)).body;
    expect(portalView.rules.find((r: { id: string }) => r.id === portalRule.id)).toMatchObject({ name: 'Portal only', appId: null, enabled: true });
    expect(ids(portalView.destinations)).toContain(portalDestination.id);
    const appView = (await asApp(integrator, 'get', '/console/api/v1/alerts').expect(200)).body;
    expect(appView.rules.find((r: { id: string }) => r.id === appRule.id)).toMatchObject({ name: 'App only', appId: integrator.appId, enabled: true });
    expect(ids(appView.destinations)).toContain(appDestination.id);
  });
});
