import { MAX_ALERT_DESTINATIONS, MAX_ALERT_RULES, type AlertRuleInput, type Tenant } from '@ecomm-sync/contracts';
import { SecretBox, sealedFor } from '@ecomm-sync/data-access';
import { DEFAULT_ALERT_RULES, emptyObjectState } from '@ecomm-sync/domain';
import {
  aNewAlertNotice,
  asRepositories,
  anAppTenant,
  aTenant,
  FakeAlertDestinationRepository,
  FakeAlertNoticeRepository,
  FakeAlertRuleRepository,
  FakeObjectStateRepository,
  FakeStoreRepository,
} from '@ecomm-sync/testing';
import { ManageAlertsUseCase } from './manage-alerts.use-case';

const NOW = 1_750_000_000_000;
const box = new SecretBox('manage-alerts-spec-secrets-key');
const invalidEmails: AlertRuleInput = {
  name: 'Invalid e-mails',
  condition: { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 0 },
};

/** Over HTTP, with the credential rules, in console-alerts.int-spec.ts; here the use case on the shared fakes. */
describe('ManageAlertsUseCase', () => {
  let tenant: Tenant;
  let alertRules: FakeAlertRuleRepository;
  let alertDestinations: FakeAlertDestinationRepository;
  let alertNotices: FakeAlertNoticeRepository;
  let stores: FakeStoreRepository;
  let objectStates: FakeObjectStateRepository;
  let useCase: ManageAlertsUseCase;

  beforeEach(() => {
    tenant = aTenant();
    alertRules = new FakeAlertRuleRepository();
    alertDestinations = new FakeAlertDestinationRepository();
    alertNotices = new FakeAlertNoticeRepository();
    stores = new FakeStoreRepository();
    objectStates = new FakeObjectStateRepository(() => NOW);
    useCase = new ManageAlertsUseCase(asRepositories({ alertRules, alertDestinations, alertNotices, stores, objectStates }), box, () => NOW);
  });

  it('when a tenant reads its alerts twice then the default rules exist once each, and nothing of another tenant shows', async () => {
    const other = aTenant();
    await alertNotices.store([aNewAlertNotice(tenant, { createdAt: NOW }), aNewAlertNotice(other, { createdAt: NOW })]);
    await useCase.createRule(other, invalidEmails);

    await useCase.read(tenant);
    const { rules, notices, destinations } = await useCase.read(tenant);

    expect(rules.map((rule) => [rule.name, rule.isDefault, rule.enabled])).toEqual(DEFAULT_ALERT_RULES.map((rule) => [rule.name, true, true]));
    expect(rules.every((rule) => rule.state.status === 'ok' && rule.lastEvaluatedAt === null)).toBe(true);
    expect(notices).toEqual([expect.objectContaining({ status: 'pending', attempts: 0, kind: 'firing' })]);
    expect(destinations).toEqual([]);
  });

  it('when a rule is created then replaced then it starts over with the new condition, and a rule of another tenant is not found', async () => {
    await stores.upsert(tenant, { id: 'store-1', label: 'Store 1' });
    const created = await useCase.createRule(tenant, { ...invalidEmails, storeId: 'store-1' });
    expect(created).toMatchObject({ name: 'Invalid e-mails', storeId: 'store-1', enabled: true, isDefault: false, state: { status: 'ok' } });

    const replaced = await useCase.replaceRule(tenant, created.id, { name: 'Lag', enabled: false, condition: { kind: 'sync-lag', minutes: 30 } });

    expect(replaced).toMatchObject({ id: created.id, name: 'Lag', storeId: null, enabled: false, condition: { kind: 'sync-lag', minutes: 30 } });
    await expect(useCase.replaceRule(aTenant(), created.id, invalidEmails)).rejects.toMatchObject({ status: 404 });
  });

  it("when a rule names a store the tenant does not have, then it is refused with 400 saying how to define it, and nothing is added; the default store of v1 traffic is every tenant's", async () => {
    const app = anAppTenant();
    await stores.upsert(anAppTenant({ portalId: app.portalId }), { id: 'theirs', label: 'Another application' });

    for (const storeId of ['theirs', 'typo']) {
      await expect(useCase.createRule(app, { ...invalidEmails, storeId })).rejects.toMatchObject({
        status: 400,
        message: `storeId "${storeId}" names no store of application ${app.appId} in portal ${app.portalId}: a rule watches only its own tenant's data, so a store it has neither defined nor sent data to would never fire it. Use one of its stores (the console overview lists them: GET /console/api/v1/overview with the same credential), or leave storeId out to watch every store`,
      });
    }
    expect(await alertRules.list(app)).toEqual([]);
    const portalOwn = aTenant({ portalId: app.portalId });
    await expect(useCase.createRule(portalOwn, { ...invalidEmails, storeId: 'theirs' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(`names no store of portal ${app.portalId}'s own data:`),
    });
    expect(await useCase.createRule(portalOwn, { ...invalidEmails, storeId: 'default' })).toMatchObject({ storeId: 'default' });
  });

  it('when the tenant has data in a store whose record was deleted, then a rule may watch it', async () => {
    await objectStates.saveMany({ tenant, storeId: 'closed-shop', objectType: 'CONTACT' }, [
      { externalObjectId: 'c1', state: emptyObjectState(), expectedRev: null },
    ]);

    expect(await useCase.createRule(tenant, { ...invalidEmails, storeId: 'closed-shop' })).toMatchObject({ storeId: 'closed-shop' });
    await expect(useCase.createRule(anAppTenant({ portalId: tenant.portalId }), { ...invalidEmails, storeId: 'closed-shop' })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('when a rule could never mean what it says, then creating or replacing it is a 400 saying what to send', async () => {
    await stores.upsert(tenant, { id: 'web', label: 'Web' });
    const everyShare = { name: 'All', condition: { kind: 'open-errors', errorType: null, measure: 'share', threshold: 100 } } as const;
    const storeCrm = { name: 'CRM', storeId: 'web', condition: { kind: 'crm-connection', unreachableMinutes: 15 } } as const;

    await expect(useCase.createRule(tenant, everyShare)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('a percentage below 100') });
    await expect(useCase.createRule(tenant, storeCrm)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('leave storeId out') });
    const created = await useCase.createRule(tenant, invalidEmails);
    await expect(useCase.replaceRule(tenant, created.id, everyShare)).rejects.toMatchObject({ status: 400 });
    expect(await alertRules.list(tenant)).toHaveLength(1);
  });

  it('when a rule stored before the checks could never fire, then it may still be disabled or renamed as it is, not changed into another such rule', async () => {
    const stored = await alertRules.create(
      tenant,
      { name: 'All', storeId: null, enabled: true, condition: { kind: 'open-errors', errorType: null, measure: 'share', threshold: 100 } },
      NOW,
    );
    const asStored = { name: 'All', condition: { kind: 'open-errors', errorType: null, measure: 'share', threshold: 100 } } as const;

    expect(await useCase.replaceRule(tenant, stored.id, { ...asStored, name: 'Every object', enabled: false })).toMatchObject({
      name: 'Every object',
      enabled: false,
    });
    await expect(useCase.replaceRule(tenant, stored.id, { ...asStored, condition: { ...asStored.condition, threshold: 150 } })).rejects.toMatchObject({
      status: 400,
    });
  });

  it('when the store a rule watches was deleted, then the rule may be replaced keeping it, but not moved to another store that does not exist', async () => {
    await stores.upsert(tenant, { id: 'web', label: 'Web' });
    const created = await useCase.createRule(tenant, { ...invalidEmails, storeId: 'web' });
    await stores.remove(tenant, 'web');

    const renamed = await useCase.replaceRule(tenant, created.id, { ...invalidEmails, name: 'Web e-mails', storeId: 'web' });

    expect(renamed).toMatchObject({ name: 'Web e-mails', storeId: 'web' });
    await expect(useCase.replaceRule(tenant, created.id, { ...invalidEmails, storeId: 'shop' })).rejects.toMatchObject({ status: 400 });
    await expect(useCase.replaceRule(aTenant(), created.id, { ...invalidEmails, storeId: 'shop' })).rejects.toMatchObject({ status: 404 });
  });

  it('when rules are deleted then a rule the customer made goes, a default one is refused with advice to disable it, and an unknown one is not found', async () => {
    const own = await useCase.createRule(tenant, invalidEmails);
    const [byInstall] = (await useCase.read(tenant)).rules.filter((rule) => rule.isDefault);

    await useCase.deleteRule(tenant, own.id);

    await expect(useCase.deleteRule(tenant, byInstall.id)).rejects.toMatchObject({ status: 409, message: expect.stringContaining('disable it') });
    await expect(useCase.deleteRule(tenant, own.id)).rejects.toMatchObject({ status: 404 });
    expect((await useCase.read(tenant)).rules.map((rule) => rule.id)).not.toContain(own.id);
  });

  it("when a tenant has as many rules as it may, the install's among them, then another is refused with 409, and another tenant still adds", async () => {
    await useCase.ensureDefaults(tenant);
    for (let n = DEFAULT_ALERT_RULES.length; n < MAX_ALERT_RULES; n++) await useCase.createRule(tenant, { ...invalidEmails, name: `Rule ${n}` });

    await expect(useCase.createRule(tenant, invalidEmails)).rejects.toMatchObject({
      status: 409,
      message: `A tenant has at most ${MAX_ALERT_RULES} alert rules, the install's among them; delete or change one instead`,
    });
    expect(await alertRules.list(tenant)).toHaveLength(MAX_ALERT_RULES);
    await expect(useCase.createRule(aTenant(), invalidEmails)).resolves.toMatchObject({ name: 'Invalid e-mails' });
  });

  it('when many adds race past the count at once, then the tenant still ends within the cap and the others are refused with 409', async () => {
    await useCase.ensureDefaults(tenant);
    for (let n = DEFAULT_ALERT_RULES.length; n < MAX_ALERT_RULES - 1; n++) await useCase.createRule(tenant, { ...invalidEmails, name: `Rule ${n}` });

    const answers = await Promise.allSettled(Array.from({ length: 10 }, (_, n) => useCase.createRule(tenant, { ...invalidEmails, name: `Racing ${n}` })));

    expect((await alertRules.list(tenant)).length).toBeLessThanOrEqual(MAX_ALERT_RULES);
    const refused = answers.filter((answer) => answer.status === 'rejected');
    expect(refused.length).toBeGreaterThanOrEqual(9);
    expect(refused.every((answer) => (answer as PromiseRejectedResult).reason.status === 409)).toBe(true);
  });

  it('when a tenant has as many destinations as it may, then another is refused with 409 until one is removed', async () => {
    const added = [];
    for (let n = 0; n < MAX_ALERT_DESTINATIONS; n++) added.push(await useCase.addDestination(tenant, { kind: 'email', email: `ops-${n}@example.com` }));

    await expect(useCase.addDestination(tenant, { kind: 'email', email: 'one-more@example.com' })).rejects.toMatchObject({ status: 409 });
    await useCase.removeDestination(tenant, added[0].id);
    await expect(useCase.addDestination(tenant, { kind: 'email', email: 'one-more@example.com' })).resolves.toMatchObject({ target: 'one-more@example.com' });
  });

  it('when a webhook destination is added then its signing secret is answered once and only its sealed form is stored', async () => {
    const added = await useCase.addDestination(tenant, { kind: 'webhook', url: 'https://hooks.shop.example/alerts', label: 'Ops' });

    expect(added).toMatchObject({ kind: 'webhook', target: 'https://hooks.shop.example/…erts', label: 'Ops', signingSecret: expect.any(String) });
    const stored = (await alertDestinations.find(added.id))!;
    expect(stored.target).not.toContain('alerts');
    expect(box.open(stored.target, sealedFor.alertDestinationUrl(added.id))).toBe('https://hooks.shop.example/alerts');
    expect(stored.sealedSecret).not.toContain(added.signingSecret);
    expect(box.open(stored.sealedSecret!, sealedFor.alertDestinationSecret(added.id))).toBe(added.signingSecret);
    expect((await useCase.read(tenant)).destinations).toEqual([{ id: added.id, kind: 'webhook', target: added.target, label: 'Ops', createdAt: NOW }]);
  });

  it('when a Slack destination is added then its URL, its credential, is answered and listed by its origin and last characters, and stored sealed for sending', async () => {
    const url = 'https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx';
    const added = await useCase.addDestination(tenant, { kind: 'slack', url });

    expect(added.target).toBe('https://hooks.slack.com/…uvwx');
    expect((await useCase.read(tenant)).destinations.map((destination) => destination.target)).toEqual(['https://hooks.slack.com/…uvwx']);
    const stored = (await alertDestinations.find(added.id))!;
    expect(stored.target).not.toContain('abcdefghijklmnopqrstuvwx');
    expect(box.open(stored.target, sealedFor.alertDestinationUrl(added.id))).toBe(url);
    expect(() => box.open(stored.target, sealedFor.alertDestinationUrl('another-destination'))).toThrow();
  });

  it('when a destination was stored with its URL whole (before URLs were sealed), then it is listed by its origin and last characters', async () => {
    const url = 'https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx';
    await alertDestinations.add(tenant, { kind: 'slack', target: url, shownTarget: null, label: '', sealedSecret: null }, NOW);

    expect((await useCase.read(tenant)).destinations.map((destination) => destination.target)).toEqual(['https://hooks.slack.com/…uvwx']);
  });

  it('when a notice failed before URLs were shown by their ends, then its reason is read with the URL shown so', async () => {
    const [id] = await alertNotices.store([aNewAlertNotice(tenant, { createdAt: NOW })]);
    await alertNotices.take(id, NOW, NOW + 60_000);
    await alertNotices.finish(id, NOW + 60_000, {
      sent: false,
      error: 'slack https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx: answered 404 after 1 attempt',
    });

    const [notice] = (await useCase.read(tenant)).notices;

    expect(notice.lastError).toBe('slack https://hooks.slack.com/…uvwx: answered 404 after 1 attempt');
  });

  it('when an e-mail destination is added then it has no secret, and a URL that is not http or https is refused', async () => {
    const mail = await useCase.addDestination(tenant, { kind: 'email', email: 'ops@shop.example' });

    expect(mail).toEqual({ id: mail.id, kind: 'email', target: 'ops@shop.example', label: '', createdAt: NOW });
    expect(await alertDestinations.find(mail.id)).toMatchObject({ target: 'ops@shop.example', sealedSecret: null });
    await expect(useCase.addDestination(tenant, { kind: 'slack', url: 'https://' })).rejects.toMatchObject({ status: 400 });
  });

  it("when a destination is removed then it goes, and removing another tenant's or an unknown one is not found", async () => {
    const mail = await useCase.addDestination(tenant, { kind: 'email', email: 'ops@shop.example' });

    await expect(useCase.removeDestination(aTenant(), mail.id)).rejects.toMatchObject({ status: 404 });
    await useCase.removeDestination(tenant, mail.id);

    expect((await useCase.read(tenant)).destinations).toEqual([]);
    await expect(useCase.removeDestination(tenant, mail.id)).rejects.toMatchObject({ status: 404 });
  });
});
