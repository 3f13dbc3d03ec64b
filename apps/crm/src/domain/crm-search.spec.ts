import { matchesFilter, matchesSearch, searchBoundsProblem, searchOrder, wildcardMatch, type SearchFilter } from './crm-search';

const object = { email: 'Ada@Example.com', amount: '250', name: 'Blue mug, large', empty: '' };

describe('the built-in CRM search', () => {
  it.each<[string, SearchFilter, boolean]>([
    ['EQ without case', { propertyName: 'email', operator: 'EQ', value: 'ada@example.COM' }, true],
    ['EQ on another value', { propertyName: 'email', operator: 'EQ', value: 'bob@example.com' }, false],
    ['NEQ', { propertyName: 'email', operator: 'NEQ', value: 'bob@example.com' }, true],
    ['NEQ on a missing property', { propertyName: 'missing', operator: 'NEQ', value: 'x' }, false],
    ['LT as numbers, not text', { propertyName: 'amount', operator: 'LT', value: '1000' }, true],
    ['LTE at the bound', { propertyName: 'amount', operator: 'LTE', value: '250' }, true],
    ['GT', { propertyName: 'amount', operator: 'GT', value: '250' }, false],
    ['GTE at the bound', { propertyName: 'amount', operator: 'GTE', value: '250' }, true],
    ['BETWEEN inside', { propertyName: 'amount', operator: 'BETWEEN', value: '100', highValue: '300' }, true],
    ['BETWEEN outside', { propertyName: 'amount', operator: 'BETWEEN', value: '300', highValue: '400' }, false],
    ['IN', { propertyName: 'amount', operator: 'IN', values: ['1', '250'] }, true],
    ['NOT_IN', { propertyName: 'amount', operator: 'NOT_IN', values: ['1', '250'] }, false],
    ['HAS_PROPERTY', { propertyName: 'amount', operator: 'HAS_PROPERTY' }, true],
    ['HAS_PROPERTY on an empty value', { propertyName: 'empty', operator: 'HAS_PROPERTY' }, false],
    ['NOT_HAS_PROPERTY on a missing one', { propertyName: 'missing', operator: 'NOT_HAS_PROPERTY' }, true],
    ['CONTAINS_TOKEN on a word', { propertyName: 'name', operator: 'CONTAINS_TOKEN', value: 'MUG' }, true],
    ['CONTAINS_TOKEN with a wildcard', { propertyName: 'name', operator: 'CONTAINS_TOKEN', value: 'lar*' }, true],
    ['CONTAINS_TOKEN on part of a word', { propertyName: 'name', operator: 'CONTAINS_TOKEN', value: 'ar' }, false],
    ['NOT_CONTAINS_TOKEN', { propertyName: 'name', operator: 'NOT_CONTAINS_TOKEN', value: 'red' }, true],
    // Names an object inherits are not properties (a stored object is a plain object).
    ['EQ on a name every object inherits', { propertyName: 'constructor', operator: 'EQ', value: 'x' }, false],
    ['HAS_PROPERTY on a name every object inherits', { propertyName: 'toString', operator: 'HAS_PROPERTY' }, false],
    ['NOT_HAS_PROPERTY on a name every object inherits', { propertyName: 'toString', operator: 'NOT_HAS_PROPERTY' }, true],
  ])('when a filter is %s, then it matches as the hosted CRM does', (_case, filter, expected) => {
    expect(matchesFilter(object, filter)).toBe(expected);
  });

  it('when there are several filter groups, then any group may match, and all filters of a group must', () => {
    const cheap = { filters: [{ propertyName: 'amount', operator: 'LT', value: '100' } as SearchFilter] };
    const ada = {
      filters: [
        { propertyName: 'email', operator: 'EQ', value: 'ada@example.com' } as SearchFilter,
        { propertyName: 'amount', operator: 'GT', value: '100' } as SearchFilter,
      ],
    };
    expect(matchesSearch(object, [cheap, ada])).toBe(true);
    expect(matchesSearch(object, [cheap])).toBe(false);
    expect(matchesSearch(object, [])).toBe(true);
  });

  it.each([
    ['*', 'anything', true],
    ['a*c', 'abc', true],
    ['a*c', 'ab', false],
    ['ab*b', 'ab', false],
    ['*end', 'the-end', true],
  ])('when the pattern is %s and the token %s, then it matches: %s', (pattern, token, expected) => {
    expect(wildcardMatch(token, pattern)).toBe(expected);
  });

  it('when sorted by a property, then missing values go last and ties go by id', () => {
    const objects = [
      { id: 3, properties: { amount: '5' } },
      { id: 1, properties: {} },
      { id: 2, properties: { amount: '40' } },
      { id: 4, properties: { amount: '5' } },
    ];
    expect([...objects].sort(searchOrder([{ propertyName: 'amount', direction: 'DESCENDING' }])).map((o) => o.id)).toEqual([2, 3, 4, 1]);
    expect([...objects].sort(searchOrder([])).map((o) => o.id)).toEqual([1, 2, 3, 4]);
  });

  it('when sorted by a name every object inherits, then no object has it and the order is by id', () => {
    const objects = [
      { id: 2, properties: { amount: '5' } },
      { id: 1, properties: { amount: '40' } },
    ];
    expect([...objects].sort(searchOrder([{ propertyName: 'toString', direction: 'ASCENDING' }])).map((o) => o.id)).toEqual([1, 2]);
  });

  it.each([
    ['six filter groups', { filterGroups: Array.from({ length: 6 }, () => ({ filters: [] })), limit: 10, after: 0, sorts: [] }, 'at most 5 filterGroups'],
    ['seven filters in a group', { filterGroups: [{ filters: Array.from({ length: 7 }, () => ({})) }], limit: 10, after: 0, sorts: [] }, 'at most 6 filters'],
    ['a page of 201', { filterGroups: [], limit: 201, after: 0, sorts: [] }, 'limit is at most 200'],
    ['a page past 10,000 results', { filterGroups: [], limit: 100, after: 9_950, sorts: [] }, 'at most 10000 results'],
    ['two sorts', { filterGroups: [], limit: 10, after: 0, sorts: [{}, {}] }, 'at most one sort'],
  ])('when a search has %s, then it is refused saying so', (_case, request, problem) => {
    expect(searchBoundsProblem(request)).toContain(problem);
  });
});
