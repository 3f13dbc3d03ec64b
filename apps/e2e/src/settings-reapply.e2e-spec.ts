import axios from 'axios';
import { aV2Message, aV2Submission, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { DEMO_MAPPINGS } from '@ecomm-sync/provisioning';
import { gatewayClient, requireCrmId } from './gateway-client';
import { crmProperty } from '@ecomm-sync/domain';

describe('settings changes re-apply stored messages (every app its own process)', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    stack = await TestStack.start();
  });

  beforeEach(async () => {
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The demo portal's settings, with the contact mappings replaced. */
  const settingsWith = (extraContactMappings: object[], enabled = true) => ({
    enabled,
    mappings: {
      DEAL: { properties: DEMO_MAPPINGS.DEAL },
      PRODUCT: { properties: DEMO_MAPPINGS.PRODUCT },
      LINE_ITEM: { properties: DEMO_MAPPINGS.LINE_ITEM },
      CONTACT: {
        properties: [
          { externalPropertyName: 'email', crmPropertyName: 'email' },
          { externalPropertyName: 'firstname', crmPropertyName: 'firstname' },
          ...extraContactMappings,
        ],
      },
    },
  });
  const putSettings = async (body: object) => {
    const response = await client.http.put('/v2/settings', body);
    if (response.status !== 200) throw new Error(`PUT settings answered ${response.status}: ${JSON.stringify(response.data)}`);
    return response.data;
  };
  const reapplyDone = (settingsRev?: number) =>
    waitFor(
      async () => {
        const response = await client.http.get('/v2/settings/reapply-status');
        return response.status === 200 && response.data.status === 'completed' && (settingsRev === undefined || response.data.settingsRev >= settingsRev)
          ? response.data
          : undefined;
      },
      { timeoutMs: 30_000, message: 're-apply to complete' },
    );
  const crmContact = async (crmId: number | null) =>
    (await axios.get(`${stack.crmUrl}/crm/v3/objects/contacts/${requireCrmId(crmId)}`, { headers: { authorization: `Bearer ${portal.crmToken}` } })).data
      .properties;

  it('when a mapping is added for a property sent earlier, then the CRM object gets the value with nothing re-sent', async () => {
    await client.putV2(
      aV2Submission('CONTACT', [
        aV2Message({ externalObjectId: 'late-map', properties: { email: 'late@example.com', firstname: 'Late', phone_number: '+49 30 1234' } }),
      ]),
    );
    const { crmId } = await client.processed('CONTACT', 'late-map');
    expect(await crmContact(crmId)).not.toHaveProperty('mobilephone');

    await putSettings(settingsWith([{ externalPropertyName: 'phone_number', crmPropertyName: 'mobilephone' }]));
    const job = await reapplyDone();
    expect(job).toMatchObject({ status: 'completed', objectTypes: ['CONTACT'], objectsProcessed: 1 });
    await waitFor(async () => (await crmContact(crmId)).mobilephone === '+49 30 1234', { message: 'the CRM contact to get mobilephone' });
  });

  it('when messages arrive while settings are disabled, then they are applied once settings are enabled', async () => {
    await putSettings(settingsWith([], false));
    await client.putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'paused', properties: { email: 'paused@example.com', firstname: 'Paused' } })]),
    );
    const paused = await client.statusWhen('CONTACT', 'paused', (status) => status.errors.length > 0, 'the SETTINGS_NOT_ENABLED error');
    expect(paused).toMatchObject({ crmId: null, errors: [expect.objectContaining({ type: 'SETTINGS_NOT_ENABLED', status: 'OPEN' })] });

    const enabled = await putSettings(settingsWith([]));
    expect(enabled.enabled).toBe(true);
    const applied = await client.statusWhen('CONTACT', 'paused', (status) => status.crmId !== null, 'the contact to be applied after enabling');
    expect(applied.errors).toEqual([]);
    expect(await crmContact(applied.crmId)).toMatchObject({ email: 'paused@example.com', firstname: 'Paused' });
  });

  it('when no settings exist, then messages get NO_SYNC_SETTINGS and apply once settings are created', async () => {
    expect((await client.http.delete('/v2/settings')).status).toBe(204);
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'unset', properties: { email: 'unset@example.com' } })]));
    await client.statusWhen('CONTACT', 'unset', (status) => status.errors.some((error) => error.type === 'NO_SYNC_SETTINGS'), 'the NO_SYNC_SETTINGS error');
    await putSettings(settingsWith([]));
    await client.statusWhen(
      'CONTACT',
      'unset',
      (status) => status.crmId !== null && status.errors.length === 0,
      'the contact to be applied once settings exist',
    );
  });

  it('when a mapped property is missing in the CRM, then creating it and asking for a re-apply applies the stored value', async () => {
    await putSettings(settingsWith([{ externalPropertyName: 'loyalty', crmPropertyName: 'loyalty_tier' }]));
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'no-prop', properties: { email: 'noprop@example.com', loyalty: 'gold' } })]));
    // Errors are recorded before the status: wait for both.
    const failed = await client.statusWhen(
      'CONTACT',
      'no-prop',
      (status) => status.errors.length > 0 && status.lastProcessedAt !== null,
      'the NO_PROPERTIES_DEFINED error on the processed contact',
    );
    expect(failed.errors).toEqual([expect.objectContaining({ type: 'NO_PROPERTIES_DEFINED', details: expect.stringContaining('[loyalty_tier: gold]') })]);
    expect(failed.crmId).toEqual(expect.any(Number)); // the rest of the contact was applied

    await stack.crm(portal).createProperty('CONTACT', crmProperty('loyalty_tier', 'Loyalty tier', 'string', { groupName: 'contactinformation' }));
    const forced = await client.http.post('/v2/settings/reapply');
    expect(forced.status).toBe(202);
    await reapplyDone(forced.data.settingsRev);
    await waitFor(async () => (await crmContact(failed.crmId)).loyalty_tier === 'gold', { timeoutMs: 40_000, message: 'the stored loyalty value in the CRM' });
    await client.statusWhen('CONTACT', 'no-prop', (status) => status.errors.length === 0, 'the error to be resolved');
  });

  it('when a mapping is removed, then that CRM property is no longer updated, and not blanked', async () => {
    await putSettings(settingsWith([{ externalPropertyName: 'phone_number', crmPropertyName: 'mobilephone' }]));
    await client.putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'unmap', changedAt: 1, properties: { email: 'unmap@example.com', phone_number: '111' } })]),
    );
    const { crmId } = await client.processed('CONTACT', 'unmap');
    expect((await crmContact(crmId)).mobilephone).toBe('111');

    const settings = await putSettings(settingsWith([]));
    expect(settings.mappings.CONTACT.properties.map((m: { crmPropertyName: string }) => m.crmPropertyName)).toEqual(['email', 'firstname']);
    await client.putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'unmap', changedAt: 2, properties: { phone_number: '222', firstname: 'Changed' } })]),
    );
    await waitFor(async () => (await crmContact(crmId)).firstname === 'Changed', { message: 'the newer firstname' });
    expect((await crmContact(crmId)).mobilephone).toBe('111');
  });
});
