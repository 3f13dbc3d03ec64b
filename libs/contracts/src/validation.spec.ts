import { toEpochMillis } from './change-time';
import { createValidator } from './validation';
import { v1SyncMessagesSchema } from './sync-v1';
import { importEventMessageSchema, v1ImportPageSchema, v2ImportPageSchema } from './imports';
import { v1SettingsSchema, v2SettingsSchema } from './settings';
import { sentStore, v2StoreInputSchema, v2SyncSubmissionSchema } from './sync-v2';

const v1 = createValidator(v1SyncMessagesSchema);
const v2 = createValidator(v2SyncSubmissionSchema);
const message = (overrides: object = {}) => ({ integratorObjectId: 'a1', action: 'UPSERT', propertyNameToValues: { email: 'a@b.co' }, ...overrides });
const submission = (overrides: object = {}) => ({
  storeId: 'default',
  objectType: 'CONTACT',
  messages: [{ externalObjectId: 'a1', action: 'UPSERT', changedAt: '1700000000000', properties: { email: 'a@b.co' } }],
  ...overrides,
});

describe('v1 sync messages schema', () => {
  it('accepts 1 to 200 messages', () => {
    expect(v1([message()]).ok).toBe(true);
    expect(v1(Array.from({ length: 200 }, () => message())).ok).toBe(true);
  });

  it.each([
    ['an empty array', [], 'body must be an array of 1 to 200 sync messages, got 0'],
    ['201 messages', Array.from({ length: 201 }, () => message()), 'body must be an array of 1 to 200 sync messages, got 201'],
    ['not an array', { integratorObjectId: 'a' }, 'body must be an array of 1 to 200 sync messages'],
    ['an unknown action', [message({ action: 'MERGE' })], 'body/0/action must be one of UPSERT, DELETE'],
    [
      'a property name over 256 characters',
      [message({ propertyNameToValues: { email: 'a@b.co', [`n${'x'.repeat(300)}`]: 'v' } })],
      `body/0/propertyNameToValues has a property name of 301 characters ("n${'x'.repeat(39)}…"): a property name must be 1 to 256 characters`,
    ],
    [
      'an empty property name',
      [message({ propertyNameToValues: { '': 'v' } })],
      'body/0/propertyNameToValues has a property name of 0 characters (""): a property name must be 1 to 256 characters',
    ],
    ['a missing id', [message({ integratorObjectId: undefined })], 'body/0 is missing the required field "integratorObjectId"'],
    [
      'an id over 100 characters',
      [message({ integratorObjectId: 'x'.repeat(101) })],
      'body/0/integratorObjectId must be an ASCII string of 1 to 100 characters',
    ],
    ['a non-ASCII id', [message({ integratorObjectId: 'café' })], 'body/0/integratorObjectId must be an ASCII string of 1 to 100 characters'],
    ['a v2 field name', [message({ properties: {} })], 'body/0 has an unknown field "properties"'],
    [
      'an object as a value',
      [message({ propertyNameToValues: { a: { b: 1 } } })],
      'body/0/propertyNameToValues/a must be a string of at most 65536 characters, a number (a whole number beyond 9007199254740991 as a string, to keep its digits), a boolean or null',
    ],
    [
      'a timestamp that is no time',
      [message({ changeOccurredTimestamp: 'yesterday' })],
      'body/0/changeOccurredTimestamp must be epoch milliseconds (a number or a numeric string) or an ISO 8601 date-time with a time zone, such as 2024-05-01T12:00:00Z (or null, the same as leaving it out)',
    ],
  ])('refuses %s', (_name, body, expected) => {
    expect(v1(body)).toEqual({ ok: false, message: expected });
  });
});

describe('optional fields sent as null (decision 0060)', () => {
  it('when a v1 message sends its timestamp and properties as null, then it is accepted', () => {
    expect(v1([message({ changeOccurredTimestamp: null, propertyNameToValues: null })])).toMatchObject({ ok: true });
  });

  it('when a v2 message sends changedAt, properties and associations as null, then it is accepted', () => {
    const nulls = { externalObjectId: 'a', action: 'UPSERT', changedAt: null, properties: null, associations: null };
    expect(v2(submission({ messages: [nulls] }))).toMatchObject({ ok: true });
  });

  it('when a v2 message sends one association type as null, then it is accepted', () => {
    const message = { externalObjectId: 'd', action: 'UPSERT', associations: { CONTACT: ['c'], DEAL: null, PRODUCT: null, LINE_ITEM: null } };
    expect(v2(submission({ objectType: 'DEAL', messages: [message] }))).toMatchObject({ ok: true });
  });

  it('when a submission sends its object type as null, then it is told what it must be', () => {
    expect(v2(submission({ objectType: null }))).toEqual({ ok: false, message: 'body/objectType must be one of CONTACT, DEAL, PRODUCT, LINE_ITEM' });
  });

  it('when import messages send their properties and associations as null, then v1 and v2 pages accept them', () => {
    expect(createValidator(v1ImportPageSchema)([{ integratorObjectId: 'a', propertyNameToValues: null }])).toMatchObject({ ok: true });
    const page = {
      importStartedAt: 1,
      pageNumber: 0,
      storeId: 'default',
      objectType: 'DEAL',
      messages: [{ externalObjectId: 'd', properties: null, associations: null }],
    };
    expect(createValidator(v2ImportPageSchema)(page)).toMatchObject({ ok: true });
  });

  it.each([
    [
      'properties as a string',
      { properties: 'email=a@b.co' },
      'body/messages/0/properties must be a map of property names to values (or null, the same as leaving it out)',
    ],
    [
      'associations as a list',
      { associations: ['d1'] },
      'body/messages/0/associations keys must be object types (CONTACT, DEAL, PRODUCT, LINE_ITEM) and values arrays of external ids (or null, the same as leaving it out)',
    ],
    ['a required field as null', { action: null }, 'body/messages/0/action must be one of UPSERT, DELETE'],
    [
      'more properties than a message may hold',
      { properties: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, i])) },
      'body/messages/0/properties must hold at most 1000 properties, got 1001',
    ],
  ])('when a v2 message sends %s, then it is refused and told what to send', (_case, fields, expected) => {
    expect(v2(submission({ messages: [{ externalObjectId: 'a', action: 'UPSERT', ...fields }] }))).toEqual({ ok: false, message: expected });
  });
});

describe('property values', () => {
  it('when a whole number is beyond what a double holds exactly, then it is refused (send it as a string); the largest exact one and decimals pass', () => {
    const valued = (raw: string) => v1(JSON.parse(`[{"integratorObjectId":"a1","action":"UPSERT","propertyNameToValues":{"order_number":${raw}}}]`));
    expect(valued('12345678901234567890')).toEqual({
      ok: false,
      message: expect.stringMatching(/^body\/0\/propertyNameToValues\/order_number must be .*a whole number beyond 9007199254740991 as a string/),
    });
    expect(valued('-9007199254740993').ok).toBe(false);
    expect(valued('9007199254740991').ok).toBe(true);
    expect(valued('1234.5678').ok).toBe(true);
  });

  it('when a value is 65,536 UTF-16 units long, then it is accepted; one unit more (half an emoji) is refused, as the CRM counts', () => {
    const valued = (value: string) => v1([message({ propertyNameToValues: { note: value } })]);
    expect(valued('😀'.repeat(32_768)).ok).toBe(true);
    expect(valued('😀'.repeat(32_768) + 'a')).toEqual({
      ok: false,
      message:
        'body/0/propertyNameToValues/note must be a string of at most 65536 characters, a number (a whole number beyond 9007199254740991 as a string, to keep its digits), a boolean or null',
    });
    expect(valued('é'.repeat(65_536)).ok).toBe(true);
  });
});

describe('v2 sync submission schema', () => {
  it('accepts changedAt as a number or a numeric string, and associations by object type', () => {
    expect(v2(submission()).ok).toBe(true);
    expect(v2(submission({ messages: [] })).ok).toBe(true); // "up to 200" (SPEC.md), none included
    expect(
      v2(
        submission({
          objectType: 'LINE_ITEM',
          messages: [{ externalObjectId: 'l', action: 'UPSERT', changedAt: 5, associations: { DEAL: ['d'], PRODUCT: ['p'] } }],
        }),
      ).ok,
    ).toBe(true);
  });

  it.each([
    ['an unknown object type', submission({ objectType: 'ORDER' }), 'body/objectType must be one of CONTACT, DEAL, PRODUCT, LINE_ITEM'],
    [
      '201 messages',
      submission({ messages: Array.from({ length: 201 }, () => ({ externalObjectId: 'a', action: 'UPSERT' })) }),
      'body/messages must hold at most 200 messages, got 201',
    ],
    ['a missing storeId', submission({ storeId: undefined }), 'body is missing the required field "storeId"'],
    [
      'a date without a time',
      submission({ messages: [{ externalObjectId: 'a', action: 'UPSERT', changedAt: '2024-01-01' }] }),
      'body/messages/0/changedAt must be epoch milliseconds (a number or a numeric string) or an ISO 8601 date-time with a time zone, such as 2024-05-01T12:00:00Z (or null, the same as leaving it out)',
    ],
    [
      'a numeric string past the largest time (8.64e15)',
      submission({ messages: [{ externalObjectId: 'a', action: 'UPSERT', changedAt: '8640000000000001' }] }),
      'body/messages/0/changedAt must be epoch milliseconds (a number or a numeric string) or an ISO 8601 date-time with a time zone, such as 2024-05-01T12:00:00Z (or null, the same as leaving it out)',
    ],
    [
      'an unknown association type',
      submission({ messages: [{ externalObjectId: 'a', action: 'UPSERT', associations: { ORDER: ['x'] } }] }),
      'body/messages/0/associations has an unknown field "ORDER"',
    ],
  ])('refuses %s', (_name, body, expected) => {
    expect(v2(body)).toEqual({ ok: false, message: expected });
  });
});

describe('change times as senders send them (v1 changeOccurredTimestamp, v2 changedAt)', () => {
  it.each([
    ['epoch ms as a number', 1_700_000_000_000, 1_700_000_000_000],
    ['epoch ms as a numeric string', '1700000000000', 1_700_000_000_000],
    ['the largest time as a string', '8640000000000000', 8_640_000_000_000_000],
    ['an ISO date-time in UTC', '2023-11-14T22:13:20Z', 1_700_000_000_000],
    ['an ISO date-time with an offset and milliseconds', '2023-11-14T23:13:20.000+01:00', 1_700_000_000_000],
    ['epoch ms with a fraction (Python’s time.time() * 1000)', 1_700_000_000_000.789, 1_700_000_000_000],
    ['epoch ms with a fraction, as a string', '1700000000000.789', 1_700_000_000_000],
    // Number() would round this one up to the next millisecond before the fraction is dropped.
    ['epoch ms with a fraction just below the next millisecond, as a string', '1700000000000.99999999', 1_700_000_000_000],
    ['a time just below the largest, with a fraction, as a string', '8639999999999999.999', 8_639_999_999_999_999],
    ['an ISO date-time with an offset of hours only (ISO 8601 allows it; Date.parse does not)', '2023-11-14T23:13:20+01', 1_700_000_000_000],
    ['an ISO date-time with an offset without its colon', '2023-11-14T20:13:20-0200', 1_700_000_000_000],
    ['a leap second, read as the last millisecond before it', '2016-12-31T23:59:60Z', Date.UTC(2016, 11, 31, 23, 59, 59, 999)],
    ['a leap second with a fraction, under an offset', '2017-01-01T00:59:60.5+01:00', Date.UTC(2016, 11, 31, 23, 59, 59, 999)],
  ])('when %s is sent, then v1 and v2 accept it and it means %i ms', (_case, value, millis) => {
    expect(v1([message({ changeOccurredTimestamp: value })]).ok).toBe(true);
    expect(v2(submission({ messages: [{ externalObjectId: 'a', action: 'UPSERT', changedAt: value }] })).ok).toBe(true);
    expect(toEpochMillis(value)).toBe(millis);
  });

  it.each(['2024-01-01', '2024-01-01T12:00:00', 'yesterday', '8640000000000001', '-5', '1.', '.5', '1e3', '8640000000000000.5'])(
    'when "%s" is sent, then it is refused',
    (value) => {
      expect(v1([message({ changeOccurredTimestamp: value })]).ok).toBe(false);
    },
  );
});

describe('v2 import page schema', () => {
  const page = createValidator(v2ImportPageSchema);
  const withMessages = (count: number) => ({
    importStartedAt: 1_700_000_000_000,
    pageNumber: 0,
    storeId: 'default',
    objectType: 'CONTACT',
    messages: Array.from({ length: count }, (_, n) => ({ externalObjectId: `c-${n}`, properties: { email: `c${n}@example.com` } })),
  });

  it.each([
    [1, true],
    [500, true],
    [501, false],
    [0, true],
  ])('when a page holds %i messages, then it is accepted: %s (SPEC.md: up to 500 import messages per request)', (count, ok) => {
    const result = page(withMessages(count));
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.message).toContain('must hold at most 500 messages');
  });

  const v1Page = createValidator(v1ImportPageSchema);
  it.each([
    [0, true],
    [500, true],
    [501, false],
  ])('when a v1 page holds %i messages, then it is accepted: %s', (count, ok) => {
    const result = v1Page(Array.from({ length: count }, (_, n) => ({ integratorObjectId: `c-${n}` })));
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.message).toContain('must hold at most 500 import messages');
  });
});

describe('v2 settings schema', () => {
  const settings = createValidator(v2SettingsSchema);
  it('when a v2 settings body carries importOnInstall (the v1 field), then it is accepted', () => {
    expect(settings({ enabled: false, importOnInstall: true, webhookUri: null, mappings: {} })).toEqual({ ok: true, value: expect.any(Object) });
  });
});

describe('settings and stores with optional fields sent as null (SPEC.md: blank values clear)', () => {
  const v1Settings = createValidator(v1SettingsSchema);
  const v2Settings = createValidator(v2SettingsSchema);
  const store = createValidator(v2StoreInputSchema);

  it.each<[string, (body: unknown) => { ok: boolean }, object]>([
    [
      'v1 settings with every field null',
      v1Settings,
      { enabled: null, importOnInstall: null, productSyncSettings: null, dealSyncSettings: null, lineItemSyncSettings: null, contactSyncSettings: null },
    ],
    ['v1 settings with a block whose mappings are null', v1Settings, { enabled: true, dealSyncSettings: { properties: null } }],
    ['v2 settings with every field null', v2Settings, { enabled: null, importOnInstall: null, webhookUri: null, mappings: null }],
    [
      'v2 settings with a null block, null mappings and a null data type',
      v2Settings,
      {
        mappings: {
          CONTACT: null,
          DEAL: { properties: null },
          PRODUCT: { properties: [{ externalPropertyName: 'n', crmPropertyName: 'name', dataType: null }] },
        },
      },
    ],
    ['a v2 store with a null admin address', store, { id: 'web', label: 'Web', adminUri: null }],
  ])('when %s comes, then it is accepted', (_case, validate, body) => {
    expect(validate(body)).toMatchObject({ ok: true });
  });

  it.each<[string, (body: unknown) => { ok: boolean }, object, string]>([
    [
      'a v1 block of the wrong type',
      v1Settings,
      { dealSyncSettings: [] },
      'body/dealSyncSettings must be an object {"properties": [mappings]} (or null, the same as leaving it out)',
    ],
    [
      'v1 mappings of the wrong type',
      v1Settings,
      { dealSyncSettings: { properties: {} } },
      'body/dealSyncSettings/properties must be an array of at most 1000 mappings (or null, the same as leaving it out)',
    ],
    [
      'more v1 mappings than a block holds',
      v1Settings,
      { dealSyncSettings: { properties: Array.from({ length: 1001 }, (_, n) => ({ propertyName: `p${n}`, targetCrmProperty: `c${n}`, dataType: 'STRING' })) } },
      'body/dealSyncSettings/properties must be an array of at most 1000 mappings (or null, the same as leaving it out), got 1001',
    ],
    [
      'a v2 data type of the wrong type',
      v2Settings,
      { mappings: { DEAL: { properties: [{ externalPropertyName: 'n', crmPropertyName: 'dealname', dataType: 5 }] } } },
      'body/mappings/DEAL/properties/0/dataType must be one of STRING, NUMBER, DATETIME, AVATAR_IMAGE (or null, the same as leaving it out)',
    ],
    ['a v1 flag of the wrong type', v1Settings, { enabled: 'yes' }, 'body/enabled must be true or false (or null, the same as leaving it out)'],
    [
      'v2 mappings of the wrong type',
      v2Settings,
      { mappings: [] },
      'body/mappings must be an object whose keys are object types (CONTACT, DEAL, PRODUCT, LINE_ITEM) (or null, the same as leaving it out)',
    ],
    [
      'a v2 data type outside the types',
      v2Settings,
      { mappings: { DEAL: { properties: [{ externalPropertyName: 'n', crmPropertyName: 'dealname', dataType: 'TEXT' }] } } },
      'body/mappings/DEAL/properties/0/dataType must be one of STRING, NUMBER, DATETIME, AVATAR_IMAGE (or null, the same as leaving it out)',
    ],
    [
      'a v2 store with an admin address that is not a URI',
      store,
      { id: 'web', label: 'Web', adminUri: 'admin' },
      'body/adminUri must be an absolute http(s) URI (or null, the same as leaving it out)',
    ],
  ])('when %s comes, then the 400 names what to send', (_case, validate, body, message) => {
    expect(validate(body)).toEqual({ ok: false, message });
  });

  it('when a store comes with a null admin address, then it is kept as a store without one', () => {
    expect(sentStore({ id: 'web', label: 'Web', adminUri: null })).toEqual({ id: 'web', label: 'Web' });
    expect(sentStore({ id: 'web', label: 'Web', adminUri: 'https://shop.example.com/admin' })).toEqual({
      id: 'web',
      label: 'Web',
      adminUri: 'https://shop.example.com/admin',
    });
  });
});

describe('import event message schema', () => {
  const event = createValidator(importEventMessageSchema, 'message');
  const importId = '0123456789abcdef01234567';

  it.each([
    ['an import started', { kind: 'import-started', importId }],
    ['an import completed', { kind: 'import-completed', importId }],
    ['a webhook answered with a body', { kind: 'webhook-completed', requestId: 'r1', ok: true, status: 200, body: { importCounts: [] } }],
    ['a webhook answered without a JSON body', { kind: 'webhook-completed', requestId: 'r1', ok: true, status: 204 }],
    ['a webhook that failed', { kind: 'webhook-completed', requestId: 'r1', ok: false, reason: 'timeout' }],
  ])('when %s is received, then it is accepted', (_name, message) => {
    expect(event(message).ok).toBe(true);
  });

  it.each([
    ['an import event without its id', { kind: 'import-started' }],
    ['a succeeded webhook without its status', { kind: 'webhook-completed', requestId: 'r1', ok: true }],
    ['a failed webhook without its reason', { kind: 'webhook-completed', requestId: 'r1', ok: false }],
    ['an unknown kind', { kind: 'import-paused', importId }],
  ])('when %s is received, then it is refused', (_name, message) => {
    expect(event(message).ok).toBe(false);
  });
});
