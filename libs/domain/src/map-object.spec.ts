import { createValidator, mappedChangesMessageSchema, type SyncSettings } from '@ecomm-sync/contracts';
import { mapObject } from './map-object';
import { emptyObjectState, mergeMessages } from './object-state';

const settings: SyncSettings = {
  enabled: true,
  mappings: {
    CONTACT: [
      { externalPropertyName: 'mail', crmPropertyName: 'email', dataType: 'STRING' },
      { externalPropertyName: 'given_name', crmPropertyName: 'firstname', dataType: 'STRING' },
    ],
    DEAL: [
      { externalPropertyName: 'total', crmPropertyName: 'amount', dataType: 'NUMBER' },
      { externalPropertyName: 'purchased', crmPropertyName: 'closedate', dataType: 'DATETIME' },
      { externalPropertyName: 'customer_ids', crmPropertyName: 'hs_assoc__contact_ids', dataType: 'STRING' },
    ],
    LINE_ITEM: [
      { externalPropertyName: 'order_id', crmPropertyName: 'hs_assoc__deal_id', dataType: 'STRING' },
      { externalPropertyName: 'product_id', crmPropertyName: 'hs_assoc__product_id', dataType: 'STRING' },
    ],
  },
};

const stateOf = (properties: Record<string, string | number | null>, associations?: Record<string, string[]>) =>
  mergeMessages(emptyObjectState(), [{ externalObjectId: 'x', action: 'UPSERT', changedAt: 10, properties, ...(associations ? { associations } : {}) }], 0)
    .state;

describe('mapObject', () => {
  it('maps sender names to CRM names and leaves unmapped properties out', () => {
    const mapped = mapObject('CONTACT', 'c1', stateOf({ mail: 'a@example.com', given_name: 'Ada', shoe_size: 38 }), settings);
    expect(mapped).toMatchObject({ action: 'UPSERT', changedAt: 10, properties: { email: 'a@example.com', firstname: 'Ada' }, problems: [] });
  });

  it('turns v1 association properties into associations, never into CRM properties', () => {
    const mapped = mapObject('DEAL', 'd1', stateOf({ total: '10', customer_ids: 'c1, c2,,' }), settings);
    expect(mapped.properties).toEqual({ amount: '10' });
    expect(mapped.associations).toEqual({ CONTACT: ['c1', 'c2'] });
  });

  it("when a line item's v1 deal and product ids hold a comma, then each is one id, without the spaces around it", () => {
    const mapped = mapObject('LINE_ITEM', 'l1', stateOf({ order_id: 'A,1', product_id: ' p 1 ' }), settings);
    expect(mapped.associations).toEqual({ DEAL: ['A,1'], PRODUCT: ['p 1'] });
  });

  it.each([
    ['a contact id over 100 characters', 'DEAL', { customer_ids: `c1,${'c'.repeat(101)},c2` }, { CONTACT: ['c1', 'c2'] }, []],
    ['a contact id that is not ASCII', 'DEAL', { customer_ids: 'c1,kundé' }, { CONTACT: ['c1'] }, []],
    [
      '1,001 contact ids',
      'DEAL',
      { customer_ids: Array.from({ length: 1001 }, (_, n) => `c${n}`).join(',') },
      { CONTACT: Array.from({ length: 1000 }, (_, n) => `c${n}`) },
      [],
    ],
    ['a deal id over 100 characters', 'LINE_ITEM', { order_id: 'd'.repeat(5000), product_id: 'p1' }, { PRODUCT: ['p1'] }, ['INVALID_ASSOCIATION_PROPERTY']],
    ['a product id that is not ASCII', 'LINE_ITEM', { order_id: 'd1', product_id: 'prödukt' }, { DEAL: ['d1'] }, ['INVALID_ASSOCIATION_PROPERTY']],
  ] as const)(
    'when a v1 association property holds %s, then only ids a message could carry are mapped',
    (_case, objectType, properties, associations, problems) => {
      const mapped = mapObject(objectType, 'x1', stateOf(properties), settings);
      expect(mapped.associations).toEqual(associations);
      expect(mapped.problems.map((problem) => problem.type)).toEqual(problems);
      for (const problem of mapped.problems) expect(problem.details.length).toBeLessThan(300);
      // The applier reads it: a change its schema refused would be dead-lettered with its whole message.
      const message = { tenant: { portalId: 1, appId: null }, storeId: 'default', objectType, changes: [{ externalObjectId: 'x1', rev: 1, ...mapped }] };
      expect(createValidator(mappedChangesMessageSchema)(message)).toMatchObject({ ok: true });
    },
  );

  it('takes v2 associations from the state', () => {
    const mapped = mapObject('LINE_ITEM', 'l1', stateOf({}, { DEAL: ['d1'], PRODUCT: ['p1'] }), settings);
    expect(mapped.associations).toEqual({ DEAL: ['d1'], PRODUCT: ['p1'] });
    expect(mapped.problems).toEqual([]);
  });

  it.each([
    ['the v1 property is newer', 200, 100, { DEAL: ['d-v1'], PRODUCT: ['p1'] }],
    ['the v2 map is newer', 100, 200, { DEAL: ['d-v2'], PRODUCT: ['p1'] }],
    ['both were sent at the same time', 100, 100, { DEAL: ['d-v2'], PRODUCT: ['p1'] }],
  ])("when a line item's deal came both as a v1 property and in a v2 map and %s, then the newer one is its deal", (_case, v1At, v2At, expected) => {
    const state = mergeMessages(
      emptyObjectState(),
      [
        { externalObjectId: 'l1', action: 'UPSERT', changedAt: v2At, properties: {}, associations: { DEAL: ['d-v2'], PRODUCT: ['p1'] } },
        { externalObjectId: 'l1', action: 'UPSERT', changedAt: v1At, properties: { order_id: 'd-v1' } },
      ],
      0,
    ).state;

    expect(mapObject('LINE_ITEM', 'l1', state, settings).associations).toEqual(expected);
  });

  it("when a deal's contacts were cleared as a v1 property after a v2 map named some, then it has none", () => {
    const state = mergeMessages(
      emptyObjectState(),
      [
        { externalObjectId: 'd1', action: 'UPSERT', changedAt: 100, properties: {}, associations: { CONTACT: ['c1'] } },
        { externalObjectId: 'd1', action: 'UPSERT', changedAt: 200, properties: { customer_ids: '' } },
      ],
      0,
    ).state;

    expect(mapObject('DEAL', 'd1', state, settings).associations).toEqual({});
  });

  it('records a conversion failure without blocking the other properties', () => {
    const mapped = mapObject('DEAL', 'd1', stateOf({ total: '10', purchased: '2024-01-02' }), settings);
    expect(mapped.properties).toEqual({ amount: '10' });
    expect(mapped.problems).toEqual([{ type: 'ERROR_INVALID_DATE_PROPERTY', blocking: false, details: expect.stringContaining('[closedate: 2024-01-02]') }]);
  });

  it.each([
    ['no settings exist', null, 'NO_SYNC_SETTINGS'],
    ['settings are disabled', { ...settings, enabled: false }, 'SETTINGS_NOT_ENABLED'],
  ])('blocks the object when %s', (_name, given, type) => {
    const mapped = mapObject('CONTACT', 'c1', stateOf({ mail: 'a@example.com' }), given);
    expect(mapped.problems).toEqual([{ type, blocking: true, details: expect.stringContaining('CONTACT[c1]') }]);
    expect(mapped.properties).toEqual({});
  });

  describe('when two sender properties map to one CRM property', () => {
    const phones: SyncSettings = {
      enabled: true,
      mappings: {
        CONTACT: [
          { externalPropertyName: 'phone', crmPropertyName: 'mobilephone', dataType: 'STRING' },
          { externalPropertyName: 'mobile', crmPropertyName: 'mobilephone', dataType: 'STRING' },
          { externalPropertyName: 'size', crmPropertyName: 'shoe_size', dataType: 'NUMBER' },
          { externalPropertyName: 'size_eu', crmPropertyName: 'shoe_size', dataType: 'NUMBER' },
        ],
      },
    };
    const message = (changedAt: number, properties: Record<string, string>) => ({ externalObjectId: 'c1', action: 'UPSERT' as const, changedAt, properties });

    it.each([
      ['the newer arrived first', [message(200, { phone: '222' }), message(100, { mobile: '111' })], '222'],
      ['the newer arrived last', [message(100, { mobile: '111' }), message(200, { phone: '222' })], '222'],
      ['both changed at once, in one order', [message(100, { mobile: '111', phone: '222' })], '222'],
      ['both changed at once, in the other', [message(100, { phone: '222', mobile: '111' })], '222'],
      ['both changed at once, the greater name cleared', [message(100, { mobile: '111', phone: null as unknown as string })], '111'],
    ])('and %s, then the value changed last wins (at once, the greater sender name)', (_case, messages, phone) => {
      const mapped = mapObject('CONTACT', 'c1', mergeMessages(emptyObjectState(), messages, 0).state, phones);
      expect(mapped.properties).toEqual({ mobilephone: phone });
    });

    it('and the older value does not convert, then only the value that wins is converted, with no problem for the other', () => {
      const state = mergeMessages(emptyObjectState(), [message(100, { size: 'large' }), message(200, { size_eu: '38' })], 0).state;
      expect(mapObject('CONTACT', 'c1', state, phones)).toMatchObject({ properties: { shoe_size: '38' }, problems: [] });
    });
  });

  it('blocks with NO_MAPPINGS_DEFINED when no sent property is mapped', () => {
    const mapped = mapObject('CONTACT', 'c1', stateOf({ shoe_size: 38 }), settings);
    expect(mapped.problems).toEqual([{ type: 'NO_MAPPINGS_DEFINED', blocking: true, details: expect.stringContaining('shoe_size') }]);
  });

  it('maps a deleted object to a DELETE with its incarnation', () => {
    const state = mergeMessages(emptyObjectState(), [{ externalObjectId: 'x', action: 'DELETE', changedAt: 20, properties: {} }], 0).state;
    expect(mapObject('CONTACT', 'c1', state, settings)).toMatchObject({ action: 'DELETE', generation: 20, changedAt: 20, problems: [] });
  });
});

describe('mapObject with names that are Object.prototype members', () => {
  const prototypeNames = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
  it.each(prototypeNames)('when a mapping targets the CRM property "%s", then it maps as a property and makes no association', (crmPropertyName) => {
    const mapped = mapObject('CONTACT', 'c1', stateOf({ mail: 'a@example.com', nick: 'Ada' }), {
      enabled: true,
      mappings: {
        CONTACT: [
          { externalPropertyName: 'mail', crmPropertyName: 'email', dataType: 'STRING' },
          { externalPropertyName: 'nick', crmPropertyName, dataType: 'STRING' },
        ],
      },
    });
    expect(mapped.associations).toEqual({});
    expect(Object.getOwnPropertyDescriptor(mapped.properties, crmPropertyName)?.value).toBe('Ada');
    expect(JSON.parse(JSON.stringify(mapped.properties))).toEqual(JSON.parse(`{"email":"a@example.com","${crmPropertyName}":"Ada"}`));
  });
});
