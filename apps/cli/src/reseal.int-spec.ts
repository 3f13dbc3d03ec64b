import { connectDatabase, SecretBox, sealedFor, type Database } from '@ecomm-sync/data-access';
import { sealedFirstForm, testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { resealSecrets } from './reseal';

const OLD_KEY = 'reseal-old-secrets-key-0123456789';
const NEW_KEY = 'reseal-new-secrets-key-0123456789';

describe('ecomm-sync reseal against MongoDB', () => {
  let database: Database;

  beforeAll(async () => {
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName('reseal').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  it('when the key was rotated, then every stored secret is sealed again under the new key, bound to its owner, and a second run changes nothing', async () => {
    const old = new SecretBox(OLD_KEY);
    const { portals, accounts, alertDestinations } = database.repositories;
    // A portal from before v2 (first form), one sealed under the old key with a hosted OAuth connection, an application.
    await portals.create({ portalId: 501, name: 'first form', crmTokenSealed: sealedFirstForm('builtin-501', OLD_KEY) });
    await portals.create({ portalId: 502, name: 'old key', crmTokenSealed: old.seal('builtin-502', sealedFor.builtinCrmToken(502)) });
    await portals.setCrmConnection(502, {
      kind: 'hosted',
      baseUrl: 'https://crm.example.com',
      auth: {
        type: 'oauth',
        clientId: 'client-502',
        clientSecretSealed: old.seal('client-secret-502', sealedFor.crmConnection(502, 'client-secret')),
        refreshTokenSealed: old.seal('refresh-502', sealedFor.crmConnection(502, 'refresh-token')),
      },
      limits: { burstPer10s: 190, dailyCap: 625_000, timeZone: 'UTC', searchPerSecond: 4 },
      changedAt: 1,
    });
    await accounts.createApplication({
      appId: '77',
      developerId: 1,
      name: 'App',
      clientId: 'c-77',
      clientSecret: 'app-secret-77',
      sealedSecret: sealedFirstForm('app-secret-77', OLD_KEY),
    });
    // An alert webhook's signing secret and its URL stored whole (before URLs were sealed), a Slack URL sealed under the
    // old key, and an e-mail destination (nothing sealed).
    const tenant = { portalId: 502, appId: null };
    const hook = '00000000-0000-4000-8000-000000000502' as const;
    const slack = '00000000-0000-4000-8000-000000000503' as const;
    await alertDestinations.add(
      tenant,
      {
        kind: 'webhook',
        target: 'https://hooks.example.com/a/token-502',
        shownTarget: null,
        label: '',
        sealedSecret: old.seal('whsec-502', sealedFor.alertDestinationSecret(hook)),
      },
      1,
      hook,
    );
    const slackUrl = 'https://hooks.slack.com/services/T0/B0/slack-token';
    await alertDestinations.add(
      tenant,
      {
        kind: 'slack',
        target: old.seal(slackUrl, sealedFor.alertDestinationUrl(slack)),
        shownTarget: 'https://hooks.slack.com/…oken',
        label: '',
        sealedSecret: null,
      },
      1,
      slack,
    );
    await alertDestinations.add(tenant, { kind: 'email', target: 'ops@example.com', shownTarget: 'ops@example.com', label: '', sealedSecret: null }, 1);
    const box = new SecretBox(NEW_KEY, [OLD_KEY]);

    const report = await resealSecrets(database.repositories, box);

    expect(report).toEqual({ resealed: 8, current: 0, failed: [] });
    // Now the new key alone opens everything, each value only for its owner.
    const fresh = new SecretBox(NEW_KEY);
    const portal501 = (await portals.findById(501))!;
    const portal502 = (await portals.findById(502))!;
    const sealed501 = (portal501.builtinCrmToken as { sealed: string }).sealed;
    expect(fresh.open(sealed501, sealedFor.builtinCrmToken(501))).toBe('builtin-501');
    expect(() => fresh.open(sealed501, sealedFor.builtinCrmToken(502))).toThrow();
    expect(fresh.open((portal502.builtinCrmToken as { sealed: string }).sealed, sealedFor.builtinCrmToken(502))).toBe('builtin-502');
    expect(portal502.crmConnection).toMatchObject({ kind: 'hosted', auth: { type: 'oauth', clientId: 'client-502' } });
    const auth = (portal502.crmConnection as { auth: { clientSecretSealed: string; refreshTokenSealed: string } }).auth;
    expect(fresh.open(auth.clientSecretSealed, sealedFor.crmConnection(502, 'client-secret'))).toBe('client-secret-502');
    expect(fresh.open(auth.refreshTokenSealed, sealedFor.crmConnection(502, 'refresh-token'))).toBe('refresh-502');
    expect(fresh.open((await accounts.sealedClientSecret('77'))!, sealedFor.appClientSecret('77'))).toBe('app-secret-77');

    const hookSecret = (await alertDestinations.find(hook))!.sealedSecret!;
    expect(fresh.open(hookSecret, sealedFor.alertDestinationSecret(hook))).toBe('whsec-502');
    expect(() => fresh.open(hookSecret, sealedFor.alertDestinationSecret('another-destination'))).toThrow();
    const hookStored = (await alertDestinations.find(hook))!;
    expect(hookStored.target).not.toContain('token-502');
    expect(fresh.open(hookStored.target, sealedFor.alertDestinationUrl(hook))).toBe('https://hooks.example.com/a/token-502');
    expect(hookStored.shownTarget).toBe('https://hooks.example.com/…-502');
    expect(fresh.open((await alertDestinations.find(slack))!.target, sealedFor.alertDestinationUrl(slack))).toBe(slackUrl);
    expect((await alertDestinations.list(tenant)).find((one) => one.kind === 'email')!.target).toBe('ops@example.com');

    expect(await resealSecrets(database.repositories, box)).toEqual({ resealed: 0, current: 8, failed: [] });
  });

  it('when a value opens with no key the service has, then it is reported and left as it was', async () => {
    const stranger = new SecretBox('a-key-nobody-configured-0123456789').seal('x', sealedFor.builtinCrmToken(601));
    await database.repositories.portals.create({ portalId: 601, name: 'lost key', crmTokenSealed: stranger });

    const report = await resealSecrets(database.repositories, new SecretBox(NEW_KEY));

    expect(report.failed).toEqual([{ what: 'portal 601 crmTokenSealed', reason: expect.stringMatching(/does not have/) }]);
    expect(((await database.repositories.portals.findById(601))!.builtinCrmToken as { sealed: string }).sealed).toBe(stranger);
  });
});
