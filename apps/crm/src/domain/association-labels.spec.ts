import {
  directionOf,
  FIRST_LABEL_TYPE_ID,
  inverseLabelTypeId,
  labelIdsOf,
  labelKeyOf,
  renamedLabel,
  targetTypeOf,
  typesBetween,
  typesOfAssociation,
  type AssociationSpec,
  type LabelDefinition,
} from './association-labels';

const buyer: LabelDefinition = { fromObjectType: 'deals', toObjectType: 'contacts', name: 'buyer', typeId: FIRST_LABEL_TYPE_ID, label: 'Buyer' };
const managerOf: LabelDefinition = {
  fromObjectType: 'contacts',
  toObjectType: 'deals',
  name: 'manager',
  typeId: FIRST_LABEL_TYPE_ID + 2,
  label: 'Manager',
  inverseLabel: 'Managed deal',
};
const referredBy: LabelDefinition = {
  fromObjectType: 'contacts',
  toObjectType: 'contacts',
  name: 'referrer',
  typeId: FIRST_LABEL_TYPE_ID + 4,
  label: 'Referrer',
};
const definitions = [buyer, managerOf, referredBy];
const spec = (associationCategory: AssociationSpec['associationCategory'], associationTypeId: number): AssociationSpec => ({
  associationCategory,
  associationTypeId,
});

describe('label type ids', () => {
  it.each([
    [
      'when the id is a label as created, then it is its own key and its inverse is the next',
      FIRST_LABEL_TYPE_ID + 2,
      FIRST_LABEL_TYPE_ID + 2,
      FIRST_LABEL_TYPE_ID + 3,
    ],
    ['when the id is the other direction, then its key is the one before', FIRST_LABEL_TYPE_ID + 3, FIRST_LABEL_TYPE_ID + 2, FIRST_LABEL_TYPE_ID + 2],
    ['when the id is the first label, then it is its own key', FIRST_LABEL_TYPE_ID, FIRST_LABEL_TYPE_ID, FIRST_LABEL_TYPE_ID + 1],
  ])('%s', (_case, typeId, key, inverse) => {
    expect(labelKeyOf(typeId)).toBe(key);
    expect(inverseLabelTypeId(typeId)).toBe(inverse);
  });
});

describe('typesBetween', () => {
  it.each([
    [
      'when a pair has a default type and labels both ways, then the default comes first, then each label in this direction',
      'deals',
      'contacts',
      [
        { category: 'HUBSPOT_DEFINED', typeId: 3, label: null },
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID, label: 'Buyer' },
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID + 3, label: 'Managed deal' },
      ],
    ],
    [
      'when the other direction is asked, then an unpaired label keeps its label and a paired one its own',
      'contacts',
      'deals',
      [
        { category: 'HUBSPOT_DEFINED', typeId: 4, label: null },
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID + 1, label: 'Buyer' },
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID + 2, label: 'Manager' },
      ],
    ],
    [
      'when a label is between a type and itself, then both of its ids are that direction',
      'contacts',
      'contacts',
      [
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID + 4, label: 'Referrer' },
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID + 5, label: 'Referrer' },
      ],
    ],
    ['when a pair has neither default nor labels, then it has no types', 'products', 'deals', []],
  ] as const)('%s', (_case, from, to, types) => {
    expect(typesBetween(definitions, from, to)).toEqual(types);
  });
});

describe('labelIdsOf', () => {
  it.each([
    ['when only the default type is named, then no label is', [spec('HUBSPOT_DEFINED', 3)], { labels: [] }],
    [
      'when labels of this direction are named, then their ids are, once each',
      [spec('HUBSPOT_DEFINED', 3), spec('USER_DEFINED', FIRST_LABEL_TYPE_ID), spec('USER_DEFINED', FIRST_LABEL_TYPE_ID)],
      { labels: [FIRST_LABEL_TYPE_ID] },
    ],
    [
      'when a label of the other direction is named, then it is unknown here',
      [spec('USER_DEFINED', FIRST_LABEL_TYPE_ID + 1)],
      { unknown: spec('USER_DEFINED', FIRST_LABEL_TYPE_ID + 1) },
    ],
    ['when an id the portal has no label for is named, then it is unknown', [spec('USER_DEFINED', 999)], { unknown: spec('USER_DEFINED', 999) }],
    ["when another direction's default is named, then it is unknown", [spec('HUBSPOT_DEFINED', 4)], { unknown: spec('HUBSPOT_DEFINED', 4) }],
    [
      'when a label id is named in another category, then it is unknown',
      [spec('INTEGRATOR_DEFINED', FIRST_LABEL_TYPE_ID)],
      { unknown: spec('INTEGRATOR_DEFINED', FIRST_LABEL_TYPE_ID) },
    ],
  ])('%s', (_case, specs, result) => {
    expect(labelIdsOf(specs, 'deals', 'contacts', definitions)).toEqual(result);
  });
});

describe('typesOfAssociation', () => {
  it.each([
    ['when an association has no label, then it has the default type', [], [{ category: 'HUBSPOT_DEFINED', typeId: 3, label: null }]],
    [
      'when it carries a label, then it has the default type and the label',
      [FIRST_LABEL_TYPE_ID],
      [
        { category: 'HUBSPOT_DEFINED', typeId: 3, label: null },
        { category: 'USER_DEFINED', typeId: FIRST_LABEL_TYPE_ID, label: 'Buyer' },
      ],
    ],
    [
      'when it carries a label the portal no longer has, then that label is left out',
      [FIRST_LABEL_TYPE_ID + 10],
      [{ category: 'HUBSPOT_DEFINED', typeId: 3, label: null }],
    ],
  ])('%s', (_case, labelIds, types) => {
    expect(typesOfAssociation(labelIds, definitions, 'deals', 'contacts')).toEqual(types);
  });
});

describe('targetTypeOf', () => {
  it.each([
    ['when a default type starts at the type, then it leads to its pair', spec('HUBSPOT_DEFINED', 20), 'line_items', 'deals'],
    ['when a default type starts at another type, then it leads nowhere from here', spec('HUBSPOT_DEFINED', 19), 'line_items', null],
    ['when a label is named by its id as created, then it leads to its to type', spec('USER_DEFINED', FIRST_LABEL_TYPE_ID), 'deals', 'contacts'],
    ['when a label is named by its other id, then it leads back', spec('USER_DEFINED', FIRST_LABEL_TYPE_ID + 1), 'contacts', 'deals'],
    ['when a label starts at another type, then it leads nowhere from here', spec('USER_DEFINED', FIRST_LABEL_TYPE_ID), 'contacts', null],
    ['when the id is no label of the portal, then it leads nowhere', spec('USER_DEFINED', 4242), 'deals', null],
    ['when the category is INTEGRATOR_DEFINED, then it leads nowhere', spec('INTEGRATOR_DEFINED', FIRST_LABEL_TYPE_ID), 'deals', null],
  ] as const)('%s', (_case, named, from, to) => {
    expect(targetTypeOf(named, from, definitions)).toBe(to);
  });
});

describe('directionOf', () => {
  it.each([
    ['when the id is the label as created, seen as created, then it is forward', buyer, 'deals', 'contacts', FIRST_LABEL_TYPE_ID, 'forward'],
    ['when the id is its other direction, seen the other way, then it is inverse', buyer, 'contacts', 'deals', FIRST_LABEL_TYPE_ID + 1, 'inverse'],
    ['when the id as created is seen the other way, then it is none', buyer, 'contacts', 'deals', FIRST_LABEL_TYPE_ID, null],
    ['when the id is of another pair of types, then it is none', buyer, 'deals', 'line_items', FIRST_LABEL_TYPE_ID, null],
    ['when a label of a type with itself is named by its other id, then it is inverse', referredBy, 'contacts', 'contacts', FIRST_LABEL_TYPE_ID + 5, 'inverse'],
    ['when the id is another label’s, then it is none', buyer, 'deals', 'contacts', FIRST_LABEL_TYPE_ID + 2, null],
  ] as const)('%s', (_case, definition, from, to, typeId, direction) => {
    expect(directionOf(definition, from, to, typeId)).toBe(direction);
  });
});

describe('renamedLabel', () => {
  it.each([
    ['when a label is renamed as created, then its label changes', buyer, 'forward', { label: 'Payer' }, { label: 'Payer' }],
    [
      'when a paired label is renamed as created without an inverse, then its inverse stays',
      managerOf,
      'forward',
      { label: 'Owner' },
      { label: 'Owner', inverseLabel: 'Managed deal' },
    ],
    [
      'when a paired label is renamed through its other direction, then that direction’s name is the inverse',
      managerOf,
      'inverse',
      { label: 'Owned deal' },
      { label: 'Manager', inverseLabel: 'Owned deal' },
    ],
    [
      'when an unpaired label is renamed through its other direction, then both directions have the new name',
      buyer,
      'inverse',
      { label: 'Payer' },
      { label: 'Payer' },
    ],
    [
      'when a label is renamed through its other direction with an inverse, then the inverse names the direction as created',
      buyer,
      'inverse',
      { label: 'Bought by', inverseLabel: 'Buyer of' },
      { label: 'Buyer of', inverseLabel: 'Bought by' },
    ],
  ] as const)('%s', (_case, definition, direction, rename, result) => {
    expect(renamedLabel(definition, direction, rename)).toEqual(result);
  });
});
