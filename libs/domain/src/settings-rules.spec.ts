import type { PropertyMapping, SyncSettings } from '@ecomm-sync/contracts';
import {
  fromV1Settings,
  fromV2Settings,
  objectTypesToReapply,
  settingsProblem,
  toV1Settings,
  toV2Settings,
  typesToReapply,
  type SettingsRecord,
} from './settings-rules';

const m = (externalPropertyName: string, crmPropertyName: string, dataType: PropertyMapping['dataType'] = 'STRING'): PropertyMapping => ({
  externalPropertyName,
  crmPropertyName,
  dataType,
});

const complete: SyncSettings['mappings'] = {
  CONTACT: [m('mail', 'email')],
  DEAL: [m('stage', 'dealstage')],
  LINE_ITEM: [m('order_id', 'hs_assoc__deal_id'), m('product_id', 'hs_assoc__product_id')],
};

describe('settingsProblem', () => {
  it.each([
    ['v1', { enabled: true, mappings: complete }],
    ['v2', { enabled: true, mappings: { CONTACT: [m('mail', 'email')], DEAL: [m('stage', 'dealstage')] } }],
    ['v1', { enabled: false, mappings: {} }],
    ['v1', { enabled: false, mappings: { PRODUCT: [m('img', 'ip__ecomm_bridge__image_url', 'AVATAR_IMAGE')] } }],
  ] as const)('%s accepts %j', (version, settings) => {
    expect(settingsProblem(settings as unknown as SyncSettings, version)).toBeNull();
  });

  it.each([
    [
      'v1',
      { enabled: false, mappings: { CONTACT: [m('a', 'x'), m('a', 'y')] } },
      'contactSyncSettings maps the property "a" twice; keep one mapping per property',
    ],
    [
      'v2',
      { enabled: false, mappings: { DEAL: [m('img', 'x', 'AVATAR_IMAGE')] } },
      'mappings.DEAL has an AVATAR_IMAGE mapping ("img"); AVATAR_IMAGE is only for PRODUCT',
    ],
    [
      'v2',
      { enabled: false, mappings: { PRODUCT: [m('a', 'x', 'AVATAR_IMAGE'), m('b', 'y', 'AVATAR_IMAGE')] } },
      'mappings.PRODUCT has 2 AVATAR_IMAGE mappings; only one is allowed per object type',
    ],
    ['v1', { enabled: true, mappings: { ...complete, CONTACT: [] } }, 'Settings cannot be enabled: contactSyncSettings must map a property to email'],
    ['v2', { enabled: true, mappings: { CONTACT: [m('mail', 'email')] } }, 'Settings cannot be enabled: mappings.DEAL must map a property to dealstage'],
    [
      'v1',
      { enabled: true, mappings: { ...complete, LINE_ITEM: [] } },
      'Settings cannot be enabled: lineItemSyncSettings must map a property to hs_assoc__deal_id and hs_assoc__product_id',
    ],
  ] as const)('%s refuses %j', (version, settings, message) => {
    expect(settingsProblem(settings as unknown as SyncSettings, version)).toBe(message);
  });
});

describe('typesToReapply', () => {
  it.each([
    ['no job superseded', ['DEAL'], [], ['DEAL']],
    ['a superseded job on its first type', ['PRODUCT'], [{ objectTypes: ['CONTACT', 'DEAL'], typeIndex: 0 }], ['CONTACT', 'DEAL', 'PRODUCT']],
    ['a superseded job past its first type', ['PRODUCT'], [{ objectTypes: ['CONTACT', 'DEAL'], typeIndex: 1 }], ['DEAL', 'PRODUCT']],
    ['a superseded job at its end', ['PRODUCT'], [{ objectTypes: ['CONTACT'], typeIndex: 1 }], ['PRODUCT']],
    [
      'types of both, once each, in the order of object types',
      ['LINE_ITEM', 'CONTACT'],
      [{ objectTypes: ['DEAL', 'CONTACT'], typeIndex: 0 }],
      ['CONTACT', 'DEAL', 'LINE_ITEM'],
    ],
    [
      'two superseded jobs',
      [],
      [
        { objectTypes: ['CONTACT'], typeIndex: 0 },
        { objectTypes: ['PRODUCT'], typeIndex: 0 },
      ],
      ['CONTACT', 'PRODUCT'],
    ],
  ] as const)('%s → %j', (_name, own, superseded, types) => {
    expect(typesToReapply(own, superseded)).toEqual(types);
  });
});

describe('objectTypesToReapply', () => {
  const enabled = (mappings: SyncSettings['mappings']): SyncSettings => ({ enabled: true, mappings });
  it.each([
    ['first settings, enabled', null, enabled(complete), ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM']],
    ['enabling', { enabled: false, mappings: complete }, enabled(complete), ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM']],
    ['disabling', enabled(complete), { enabled: false, mappings: complete }, []],
    ['nothing changed', enabled(complete), enabled({ ...complete }), []],
    [
      'the same mappings in another order',
      enabled({ CONTACT: [m('a', 'x'), m('mail', 'email')] }),
      enabled({ CONTACT: [m('mail', 'email'), m('a', 'x')] }),
      [],
    ],
    ['a contact mapping added', enabled(complete), enabled({ ...complete, CONTACT: [m('mail', 'email'), m('first', 'firstname')] }), ['CONTACT']],
    ['a product data type changed', enabled({ PRODUCT: [m('p', 'price')] }), enabled({ PRODUCT: [m('p', 'price', 'NUMBER')] }), ['PRODUCT']],
  ] as const)('%s → %j', (_name, before, after, types) => {
    expect(objectTypesToReapply(before as unknown as SyncSettings | null, after as unknown as SyncSettings)).toEqual(types);
  });
});

describe('v1 and v2 views of the same settings', () => {
  const record: SettingsRecord = { enabled: true, importOnInstall: true, webhookUri: 'https://shop.example.com/import', mappings: complete };

  it('a v1 GET body, PUT back unchanged, stores the same settings', () => {
    expect(fromV1Settings(toV1Settings(record, false), record)).toEqual({ ...record, mappings: { ...complete, PRODUCT: [] } });
  });

  it('a v2 GET body, PUT back unchanged, stores the same settings', () => {
    expect(fromV2Settings(toV2Settings(record, false), record)).toEqual({ ...record, mappings: { ...complete, PRODUCT: [] } });
  });

  it('provided mappings are shown only on request and never stored', () => {
    const shown = toV1Settings(record, true);
    expect(shown.lineItemSyncSettings.properties).toContainEqual({
      propertyName: 'hs_assoc__deal_id',
      targetCrmProperty: 'hs_assoc__deal_id',
      dataType: 'STRING',
    });
    expect(shown.contactSyncSettings.properties).toContainEqual({
      propertyName: 'ip__ecomm_bridge__ecomm_synced',
      targetCrmProperty: 'ip__ecomm_bridge__ecomm_synced',
      dataType: 'STRING',
    });
    expect(toV1Settings(record, false).contactSyncSettings.properties).toEqual([{ propertyName: 'mail', targetCrmProperty: 'email', dataType: 'STRING' }]);
    expect(fromV1Settings(shown, record).mappings.CONTACT).toEqual(complete.CONTACT);
  });

  it('keeps a v1 association property mapped under its own name, which satisfies the enabling rule and is shown once', () => {
    const input = {
      enabled: true,
      contactSyncSettings: { properties: [{ propertyName: 'mail', targetCrmProperty: 'email', dataType: 'STRING' as const }] },
      dealSyncSettings: { properties: [{ propertyName: 'stage', targetCrmProperty: 'dealstage', dataType: 'STRING' as const }] },
      lineItemSyncSettings: {
        properties: ['hs_assoc__deal_id', 'hs_assoc__product_id'].map((name) => ({ propertyName: name, targetCrmProperty: name, dataType: 'STRING' as const })),
      },
    };
    const stored = fromV1Settings(input, null);
    expect(settingsProblem(stored, 'v1')).toBeNull();
    expect(toV1Settings(stored, false).lineItemSyncSettings).toEqual(input.lineItemSyncSettings);
    const names = toV1Settings(stored, true).lineItemSyncSettings.properties.map((mapping) => mapping.propertyName);
    expect(names.filter((name) => name === 'hs_assoc__deal_id')).toHaveLength(1);
  });

  it.each([
    ['v1', (mapping: object[]) => fromV1Settings({ enabled: false, contactSyncSettings: { properties: mapping as never } }, null)],
    ['v2', (mapping: object[]) => fromV2Settings({ mappings: { CONTACT: { properties: mapping as never } } }, null)],
  ] as const)('when a %s PUT sends one mapping twice byte for byte, then it is stored once; mapped two ways, it is still refused', (version, put) => {
    const once =
      version === 'v1'
        ? { propertyName: 'mail', targetCrmProperty: 'email', dataType: 'STRING' }
        : { externalPropertyName: 'mail', crmPropertyName: 'email', dataType: 'STRING' };
    const other = version === 'v1' ? { ...once, targetCrmProperty: 'firstname' } : { ...once, crmPropertyName: 'firstname' };
    const repeated = put([once, { ...once }]);
    expect(repeated.mappings.CONTACT).toEqual([m('mail', 'email')]);
    expect(settingsProblem(repeated, version)).toBeNull();
    expect(settingsProblem(put([once, other]), version)).toMatch(/maps the property "mail" twice/);
  });

  it('a v1 PUT keeps the import trigger URI; a v2 PUT keeps importOnInstall; v2 dataType defaults to STRING', () => {
    expect(fromV1Settings({ enabled: false }, record)).toMatchObject({ webhookUri: 'https://shop.example.com/import', importOnInstall: false });
    expect(fromV2Settings({ mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email' }] } } }, record)).toMatchObject({
      importOnInstall: true,
      webhookUri: null,
      mappings: { CONTACT: [m('mail', 'email')] },
    });
  });
});

describe('settings with optional fields sent as null, as clients that serialise every field send them', () => {
  const stored: SettingsRecord = {
    enabled: true,
    importOnInstall: true,
    webhookUri: 'https://shop.example.com/import',
    mappings: { CONTACT: [m('mail', 'email')] },
  };
  it('when a v1 PUT sends every field null, then it is the same as leaving them out: disabled, no mappings, the import address kept', () => {
    const nulls = {
      enabled: null,
      importOnInstall: null,
      productSyncSettings: null,
      dealSyncSettings: { properties: null },
      lineItemSyncSettings: null,
      contactSyncSettings: null,
    };
    expect(fromV1Settings(nulls, stored)).toEqual(fromV1Settings({}, stored));
    expect(fromV1Settings(nulls, stored)).toEqual({
      enabled: false,
      importOnInstall: false,
      webhookUri: 'https://shop.example.com/import',
      mappings: { CONTACT: [], DEAL: [], PRODUCT: [], LINE_ITEM: [] },
    });
  });

  it('when a v2 PUT sends every field null, then it is the same as leaving them out, importOnInstall kept; a null data type is STRING', () => {
    expect(fromV2Settings({ enabled: null, importOnInstall: null, webhookUri: null, mappings: null }, stored)).toEqual(fromV2Settings({}, stored));
    expect(
      fromV2Settings(
        { mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email', dataType: null }] }, DEAL: null } },
        stored,
      ).mappings,
    ).toEqual({
      CONTACT: [m('mail', 'email')],
      DEAL: [],
      PRODUCT: [],
      LINE_ITEM: [],
    });
  });
});

describe('v2 settings with importOnInstall, as clients send the one settings object to both versions', () => {
  const current: SettingsRecord = { enabled: true, importOnInstall: true, webhookUri: null, mappings: {} };
  it.each([
    ['given true', { importOnInstall: true }, null, true],
    ['given false over a stored true', { importOnInstall: false }, current, false],
    ['left out, with a stored true', {}, current, true],
    ['left out, with nothing stored', {}, null, false],
  ])('when importOnInstall is %s, then the stored setting follows', (_case, input, stored, expected) => {
    expect(fromV2Settings(input, stored).importOnInstall).toBe(expected);
  });
});
