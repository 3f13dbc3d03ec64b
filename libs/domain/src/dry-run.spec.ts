import type { SyncSettings } from '@ecomm-sync/contracts';
import { dryRunObject, inspectedStatus } from './dry-run';
import { enumerationsOf } from './enumeration-options';
import { emptyObjectState, type RawObjectState } from './object-state';

const contact = (properties: Record<string, string>): RawObjectState => ({
  ...emptyObjectState(),
  upsertedAt: 10,
  properties: Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, { value, changedAt: 10 }])),
});
const settings = (pairs: [string, string][], enabled = true): SyncSettings => ({
  enabled,
  mappings: { CONTACT: pairs.map(([externalPropertyName, crmPropertyName]) => ({ externalPropertyName, crmPropertyName, dataType: 'STRING' as const })) },
});
const defined = new Set(['email', 'firstname']);
const sent = contact({ email: 'not-an-address', work_email: 'ada@example.com', first: 'Ada' });

describe('dryRunObject', () => {
  it.each<[string, SyncSettings, number | null, { operation: string; properties: Record<string, string | null>; problemTypes: string[] }]>([
    [
      'when email is mapped from a bad address, then it would get INVALID_EMAIL_ADDRESS',
      settings([['email', 'email']]),
      null,
      { operation: 'CREATE', properties: { email: 'not-an-address' }, problemTypes: ['INVALID_EMAIL_ADDRESS'] },
    ],
    [
      'when email is mapped from the good address instead, then it would be created with no error',
      settings([
        ['work_email', 'email'],
        ['first', 'firstname'],
      ]),
      null,
      { operation: 'CREATE', properties: { email: 'ada@example.com', firstname: 'Ada' }, problemTypes: [] },
    ],
    [
      'when a mapping names a property the CRM does not define, then it would get NO_PROPERTIES_DEFINED and keep the rest',
      settings([
        ['work_email', 'email'],
        ['first', 'nickname'],
      ]),
      5,
      { operation: 'UPDATE', properties: { email: 'ada@example.com' }, problemTypes: ['NO_PROPERTIES_DEFINED'] },
    ],
    [
      'when the settings are not enabled, then nothing would be written',
      settings([['work_email', 'email']], false),
      null,
      { operation: 'CREATE', properties: {}, problemTypes: ['SETTINGS_NOT_ENABLED'] },
    ],
    [
      'when no sent property is mapped, then it would get NO_MAPPINGS_DEFINED',
      settings([['phone', 'phone']]),
      null,
      { operation: 'CREATE', properties: {}, problemTypes: ['NO_MAPPINGS_DEFINED'] },
    ],
    [
      'when a linked contact has no email mapped, then an update needs none',
      settings([['first', 'firstname']]),
      5,
      { operation: 'UPDATE', properties: { firstname: 'Ada' }, problemTypes: [] },
    ],
    [
      'when a new contact has no email mapped, then it would get MISSING_REQUIRED_PROPERTY',
      settings([['first', 'firstname']]),
      null,
      { operation: 'CREATE', properties: { firstname: 'Ada' }, problemTypes: ['MISSING_REQUIRED_PROPERTY'] },
    ],
  ])('%s', (_name, draft, linkedCrmId, expected) => {
    const outcome = dryRunObject('CONTACT', 'c1', sent, draft, { definedProperties: defined, linkedCrmId, associationTargets: new Map() });
    expect({ operation: outcome.operation, properties: outcome.properties, problemTypes: outcome.problems.map((problem) => problem.type) }).toEqual(expected);
  });

  it('when a line item is dry-run, then each association says what it would link to, from the stored links', () => {
    const lineItem: RawObjectState = {
      ...emptyObjectState(),
      upsertedAt: 10,
      properties: { quantity: { value: '2', changedAt: 10 } },
      associations: { DEAL: { value: ['d1'], changedAt: 10 }, PRODUCT: { value: ['p9'], changedAt: 10 } },
    };
    const draft: SyncSettings = {
      enabled: true,
      mappings: { LINE_ITEM: [{ externalPropertyName: 'quantity', crmPropertyName: 'quantity', dataType: 'NUMBER' }] },
    };
    const outcome = dryRunObject('LINE_ITEM', 'l1', lineItem, draft, {
      definedProperties: new Set(['quantity']),
      linkedCrmId: null,
      associationTargets: new Map([['DEAL', new Map([['d1', 501]])]]),
    });
    expect(outcome.associationTargets).toEqual([
      { objectType: 'DEAL', externalObjectId: 'd1', crmId: 501, outcome: 'links' },
      { objectType: 'PRODUCT', externalObjectId: 'p9', crmId: null, outcome: 'waits' },
    ]);
    expect(outcome.problems.map((problem) => [problem.type, problem.blocking])).toEqual([['INVALID_ASSOCIATION_PROPERTY', true]]);
  });

  it('when a mapped value is not one of its CRM enumeration’s options, then the dry run says the CRM would refuse the object', () => {
    const product = contact({ email: 'ada@example.com', size: 'XL', colour: 'red' });
    const draft = settings([
      ['email', 'email'],
      ['size', 'size'],
      ['colour', 'colour'],
    ]);
    const enumerations = enumerationsOf('CONTACT', [
      { name: 'size', type: 'enumeration', fieldType: 'select', options: [{ value: 'S' }, { value: 'M' }] },
      { name: 'colour', type: 'enumeration', fieldType: 'select', options: [{ value: 'red' }] },
    ]);
    const crm = { definedProperties: new Set(['email', 'size', 'colour']), linkedCrmId: null, associationTargets: new Map(), enumerations };

    const outcome = dryRunObject('CONTACT', 'c1', product, draft, crm);

    expect(outcome.problems).toEqual([
      {
        type: 'INVALID_ENUM_PROPERTY',
        blocking: true,
        details:
          'Error performing[CREATE] CONTACT[c1]: "XL" is not one of the options of the CRM property size; add the option in the CRM or map another value [size: XL]',
      },
    ]);
  });

  it('when a mapped value of a CRM date property is not midnight UTC, then the dry run says the CRM would refuse the object', () => {
    const withBirthday = contact({ email: 'ada@example.com', born: '1430438400001' });
    const draft = settings([
      ['email', 'email'],
      ['born', 'birthday'],
    ]);
    const crm = { definedProperties: new Set(['email', 'birthday']), linkedCrmId: null, associationTargets: new Map(), dates: new Set(['birthday']) };

    expect(dryRunObject('CONTACT', 'c1', withBirthday, draft, crm).problems).toEqual([
      {
        type: 'ERROR_INVALID_DATE_PROPERTY',
        blocking: true,
        details:
          'Error performing[CREATE] CONTACT[c1]: the CRM property birthday is a date (a day, no time) and takes midnight UTC only; map a date-time property, or have the sender send midnight UTC of the day [birthday: 1430438400001]',
      },
    ]);
  });

  it('when a value mapped as text to a CRM number property is not plain digits, then the dry run says the CRM would refuse the object', () => {
    const withAmount = contact({ email: 'ada@example.com', spent: '1e3' });
    const draft = settings([
      ['email', 'email'],
      ['spent', 'total_spent'],
    ]);
    const crm = { definedProperties: new Set(['email', 'total_spent']), linkedCrmId: null, associationTargets: new Map(), numbers: new Set(['total_spent']) };

    expect(dryRunObject('CONTACT', 'c1', withAmount, draft, crm).problems).toEqual([
      {
        type: 'UNKNOWN_ERROR',
        blocking: true,
        details:
          'Error performing[CREATE] CONTACT[c1]: INVALID_NUMBER: the CRM property total_spent is a number and takes digits with an optional leading minus and one point only; map it with the NUMBER data type, or have the sender send such a number [total_spent: 1e3]',
      },
    ]);
  });

  it('when the object was deleted, then the dry run says DELETE and maps nothing', () => {
    const deleted = { ...sent, deletedAt: 20 };
    expect(
      dryRunObject('CONTACT', 'c1', deleted, settings([['email', 'email']]), { definedProperties: defined, linkedCrmId: 5, associationTargets: new Map() }),
    ).toEqual({ operation: 'DELETE', properties: {}, associations: {}, associationTargets: [], problems: [] });
  });
});

describe('inspectedStatus', () => {
  const facts: Parameters<typeof inspectedStatus>[0] = { received: true, processed: true, crmId: 4, archived: false, openErrors: 0, waiting: false };
  it.each<[string, Partial<typeof facts>, string]>([
    ['when nothing was received, then it is unknown', { received: false, processed: false, crmId: null }, 'unknown'],
    ['when it is linked and has no open error, then it is applied', {}, 'applied'],
    ['when it has an open error, then it failed even if linked', { openErrors: 1 }, 'failed'],
    ['when it waits for what it references, then it is waiting', { waiting: true, openErrors: 1, crmId: null }, 'waiting'],
    ['when it was received but not processed yet, then it is not processed', { processed: false, crmId: null }, 'not-processed'],
    ['when its CRM object was archived, then it is archived', { archived: true }, 'archived'],
  ])('%s', (_name, over, expected) => {
    expect(inspectedStatus({ ...facts, ...over })).toBe(expected);
  });
});
