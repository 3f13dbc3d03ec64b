import { isValidEmail, validateChange } from './validate-change';

const defined = new Set(['email', 'firstname', 'dealstage', 'dealname', 'quantity']);
const change = (properties: Record<string, string | null>, associations = {}) => ({ externalObjectId: 'x1', properties, associations });

describe('validateChange', () => {
  it.each([
    ['CONTACT', 'create without email', change({ firstname: 'A' }), true, 'MISSING_REQUIRED_PROPERTY'],
    ['CONTACT', 'invalid email', change({ email: 'nope' }), false, 'INVALID_EMAIL_ADDRESS'],
    ['DEAL', 'create without dealstage', change({ dealname: 'D' }), true, 'MISSING_REQUIRED_PROPERTY'],
    ['DEAL', 'stage outside the ecommerce pipeline', change({ dealstage: 'closedwon' }), false, 'INVALID_DEAL_STAGE'],
    ['DEAL', 'create with a cleared stage', change({ dealstage: null }), true, 'MISSING_REQUIRED_PROPERTY'],
    ['CONTACT', 'create with a cleared email', change({ email: '' }), true, 'MISSING_REQUIRED_PROPERTY'],
    ['LINE_ITEM', 'create without deal', change({ quantity: '1' }, { PRODUCT: ['p'] }), true, 'MISSING_REQUIRED_PROPERTY'],
    ['LINE_ITEM', 'create without product', change({ quantity: '1' }, { DEAL: ['d'] }), true, 'MISSING_REQUIRED_PROPERTY'],
  ] as const)('%s: %s is a blocking %s', (objectType, _name, given, isCreate, type) => {
    const { problems } = validateChange(objectType, given, { definedProperties: defined, isCreate });
    expect(problems).toEqual([{ type, blocking: true, details: expect.stringContaining(`${objectType}[x1]`) }]);
  });

  it('when a new line item’s deal id is one no message can carry, then its create is blocked by that INVALID_ASSOCIATION_PROPERTY, not a missing deal', () => {
    const unusable = {
      type: 'INVALID_ASSOCIATION_PROPERTY' as const,
      blocking: false,
      details: 'Error performing[UPSERT] LINE_ITEM[x1]: not an external id [hs_assoc__deal_id: dddd…]',
    };
    const given = { ...change({ quantity: '1' }, { PRODUCT: ['p'] }), problems: [unusable] };
    expect(validateChange('LINE_ITEM', given, { definedProperties: defined, isCreate: true }).problems).toEqual([{ ...unusable, blocking: true }]);
    expect(validateChange('LINE_ITEM', given, { definedProperties: defined, isCreate: false }).problems).toEqual([]);
  });

  it.each([
    ['CONTACT', change({ email: 'a@example.com' }), true],
    ['CONTACT', change({ firstname: 'only a name' }), false],
    ['CONTACT', change({ email: 'a@example.com', firstname: null }), false],
    ['DEAL', change({ dealname: null }), false],
    ['DEAL', change({ dealstage: 'checkout_pending' }), true],
    ['LINE_ITEM', change({ quantity: '1' }, { DEAL: ['d'], PRODUCT: ['p'] }), true],
    ['PRODUCT', change({}), true],
  ] as const)('%s passes %p', (objectType, given, isCreate) => {
    expect(validateChange(objectType, given, { definedProperties: defined, isCreate }).problems).toEqual([]);
  });

  it.each([
    ['DEAL', 'dealstage', 'INVALID_DEAL_STAGE', change({ dealstage: null, dealname: 'D' }), { dealname: 'D' }],
    ['DEAL', 'dealstage', 'INVALID_DEAL_STAGE', change({ dealstage: '' }), {}],
    ['CONTACT', 'email', 'INVALID_EMAIL_ADDRESS', change({ email: null, firstname: 'A' }), { firstname: 'A' }],
  ] as const)(
    'when a %s update clears its %s, then the rest is written without it, with a %s that does not block',
    (objectType, _name, type, given, written) => {
      const result = validateChange(objectType, given, { definedProperties: defined, isCreate: false });
      expect(result.properties).toEqual(written);
      expect(result.problems).toEqual([{ type, blocking: false, details: expect.stringContaining('cannot be cleared; the CRM keeps its value') }]);
    },
  );

  it('drops properties the CRM does not define and reports them without blocking', () => {
    const result = validateChange('CONTACT', change({ email: 'a@example.com', shoe_size: '38' }), { definedProperties: defined, isCreate: true });
    expect(result.properties).toEqual({ email: 'a@example.com' });
    expect(result.problems).toEqual([{ type: 'NO_PROPERTIES_DEFINED', blocking: false, details: expect.stringContaining('[shoe_size: 38]') }]);
  });

  it('names the association property in brackets, as field clients parse it', () => {
    const { problems } = validateChange('LINE_ITEM', change({}, { PRODUCT: ['p'] }), { definedProperties: defined, isCreate: true });
    expect(problems[0].details).toMatch(/\[hs_assoc__deal_id: \(missing\)\]/);
  });
});

describe('isValidEmail', () => {
  it.each([
    ['a@example.com', true],
    ['first.last+tag@sub.example.co.uk', true],
    ['a@b', false],
    ['no-at.example.com', false],
    ['two@@example.com', false],
    ['spa ce@example.com', false],
    ['a@example..com', false],
  ])('%s → %s', (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });
});
