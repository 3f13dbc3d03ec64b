import type { ObjectType } from '@ecomm-sync/contracts';
import { misplacedAssociations, resolveAssociations, type AssociationTargetIds } from './association-targets';

const linked: AssociationTargetIds = new Map<ObjectType, Map<string, number>>([
  ['DEAL', new Map([['d1', 501]])],
  ['PRODUCT', new Map([['p1', 701]])],
  ['CONTACT', new Map([['c1', 301]])],
]);

describe('resolveAssociations', () => {
  it.each<
    [
      string,
      ObjectType,
      Partial<Record<ObjectType, string[]>>,
      boolean,
      {
        targets: [string, string, number | null, string][];
        associations: object;
        waitingFor: string[];
        associateLater: string[];
        problems: [string, boolean][];
      },
    ]
  >([
    [
      'when a new line item names a linked deal and product, then it links to both',
      'LINE_ITEM',
      { DEAL: ['d1'], PRODUCT: ['p1'] },
      true,
      {
        targets: [
          ['DEAL', 'd1', 501, 'links'],
          ['PRODUCT', 'p1', 701, 'links'],
        ],
        associations: { DEAL: [501], PRODUCT: [701] },
        waitingFor: [],
        associateLater: [],
        problems: [],
      },
    ],
    [
      'when a new line item names a product not synced yet, then it waits for it with a blocking error',
      'LINE_ITEM',
      { DEAL: ['d1'], PRODUCT: ['p9'] },
      true,
      {
        targets: [
          ['DEAL', 'd1', 501, 'links'],
          ['PRODUCT', 'p9', null, 'waits'],
        ],
        associations: { DEAL: [501] },
        waitingFor: ['PRODUCT:p9'],
        associateLater: [],
        problems: [['INVALID_ASSOCIATION_PROPERTY', true]],
      },
    ],
    [
      'when a linked line item names a deal not synced, then it is updated without it, with an error, and links it when it arrives',
      'LINE_ITEM',
      { DEAL: ['d9'], PRODUCT: ['p1'] },
      false,
      {
        targets: [
          ['DEAL', 'd9', null, 'not-linked'],
          ['PRODUCT', 'p1', 701, 'links'],
        ],
        associations: { PRODUCT: [701] },
        waitingFor: [],
        associateLater: ['DEAL:d9'],
        problems: [['INVALID_ASSOCIATION_PROPERTY', false]],
      },
    ],
    [
      'when a deal names a contact not synced yet, then it links later and no error is recorded',
      'DEAL',
      { CONTACT: ['c1', 'c9'] },
      true,
      {
        targets: [
          ['CONTACT', 'c1', 301, 'links'],
          ['CONTACT', 'c9', null, 'links-later'],
        ],
        associations: { CONTACT: [301] },
        waitingFor: [],
        associateLater: ['CONTACT:c9'],
        problems: [],
      },
    ],
    [
      'when a new line item names two deals, then it fails at once: it waits for nothing and links to neither',
      'LINE_ITEM',
      { DEAL: ['d1', 'd2'], PRODUCT: ['p9'] },
      true,
      {
        targets: [['PRODUCT', 'p9', null, 'waits']],
        associations: {},
        waitingFor: [],
        associateLater: [],
        problems: [
          ['INVALID_ASSOCIATION_PROPERTY', true],
          ['INVALID_ASSOCIATION_PROPERTY', true],
        ],
      },
    ],
    [
      'when a linked line item names two products, then it is updated with its deal and without a product, with an error',
      'LINE_ITEM',
      { DEAL: ['d1'], PRODUCT: ['p1', 'p2'] },
      false,
      {
        targets: [['DEAL', 'd1', 501, 'links']],
        associations: { DEAL: [501] },
        waitingFor: [],
        associateLater: [],
        problems: [['INVALID_ASSOCIATION_PROPERTY', false]],
      },
    ],
    [
      'when a contact names associations, then none is made (contacts associate nothing)',
      'CONTACT',
      { DEAL: ['d1'] },
      true,
      { targets: [], associations: {}, waitingFor: [], associateLater: [], problems: [] },
    ],
  ])('%s', (_name, objectType, associations, isCreate, expected) => {
    const resolved = resolveAssociations(objectType, { externalObjectId: 'x1', associations }, linked, isCreate);
    expect({
      targets: resolved.targets.map((t) => [t.objectType, t.externalObjectId, t.crmId, t.outcome]),
      associations: resolved.associations,
      waitingFor: resolved.waitingFor,
      associateLater: resolved.associateLater,
      problems: resolved.problems.map((p) => [p.type, p.blocking]),
    }).toEqual(expected);
  });

  it('when a required target is missing, then the error names its v1 property and the id', () => {
    const [problem] = resolveAssociations('LINE_ITEM', { externalObjectId: 'l1', associations: { DEAL: ['d9'], PRODUCT: ['p1'] } }, linked, true).problems;
    expect(problem.details).toContain('d9');
    expect(problem.details).toContain('no synced DEAL has this id');
  });

  it('when a line item names more than one deal, then the error names the v1 property with every id given, in brackets', () => {
    const [problem] = resolveAssociations(
      'LINE_ITEM',
      { externalObjectId: 'l1', associations: { DEAL: ['d1', 'd2'], PRODUCT: ['p1'] } },
      linked,
      true,
    ).problems;
    expect(problem.details).toContain('[hs_assoc__deal_id: d1,d2]');
    expect(problem.details).toContain('a LINE_ITEM has one DEAL, 2 were given; send one id');
  });
});

describe('misplacedAssociations', () => {
  it.each<[string, ObjectType, Partial<Record<ObjectType, string[]>>[], string | null]>([
    ['a deal naming contacts', 'DEAL', [{ CONTACT: ['c1', 'c2'] }], null],
    ['a line item naming its deal and product', 'LINE_ITEM', [{ DEAL: ['d1'], PRODUCT: ['p1'] }], null],
    ['messages without associations, or with none named', 'CONTACT', [{}, {}], null],
    ['a contact naming every type with no ids', 'CONTACT', [{ CONTACT: [], DEAL: [], PRODUCT: [], LINE_ITEM: [] }], null],
    [
      'a contact naming a deal',
      'CONTACT',
      [{}, { DEAL: ['d1'] }],
      'body/messages/1/associations names DEAL: a CONTACT has no associations (a DEAL names CONTACT, a LINE_ITEM its DEAL and PRODUCT)',
    ],
    [
      'a product naming anything',
      'PRODUCT',
      [{ LINE_ITEM: ['l1'] }],
      'body/messages/0/associations names LINE_ITEM: a PRODUCT has no associations (a DEAL names CONTACT, a LINE_ITEM its DEAL and PRODUCT)',
    ],
    [
      'a deal naming a line item',
      'DEAL',
      [{ CONTACT: ['c1'], LINE_ITEM: ['l1'] }],
      'body/messages/0/associations names LINE_ITEM: a DEAL names only CONTACT (a DEAL names CONTACT, a LINE_ITEM its DEAL and PRODUCT)',
    ],
    [
      'a line item naming a contact',
      'LINE_ITEM',
      [{ DEAL: ['d1'], CONTACT: ['c1'] }],
      'body/messages/0/associations names CONTACT: a LINE_ITEM names only DEAL and PRODUCT (a DEAL names CONTACT, a LINE_ITEM its DEAL and PRODUCT)',
    ],
  ])('when %s, then the answer is as the table says', (_case, objectType, messages, expected) => {
    expect(
      misplacedAssociations(
        objectType,
        messages.map((associations) => ({ associations })),
      ),
    ).toBe(expected);
  });
});
