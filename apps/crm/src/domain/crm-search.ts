import { ownValue } from '@ecomm-sync/domain';

/** Search operators of the CRM's search API (the hosted CRM's list). */
export const SEARCH_OPERATORS = [
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
] as const;
export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

/** The hosted CRM's bounds on one search request. */
export const SEARCH_LIMITS = { filterGroups: 5, filtersPerGroup: 6, filters: 18, pageSize: 200, results: 10_000 } as const;

export interface SearchFilter {
  propertyName: string;
  operator: SearchOperator;
  value?: string;
  highValue?: string;
  values?: string[];
}

export interface SearchSort {
  propertyName: string;
  direction: 'ASCENDING' | 'DESCENDING';
}

type Properties = Readonly<Record<string, string | null | undefined>>;

const present = (value: string | null | undefined): value is string => value !== null && value !== undefined && value !== '';

/** Numbers compare as numbers, anything else as text without case (dates are kept, and asked for, as epoch milliseconds: ObjectReads.search). */
function compare(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The words of a value, as CONTAINS_TOKEN looks for them. */
const tokensOf = (value: string): string[] =>
  value
    .toLowerCase()
    .split(/[^\p{L}\p{N}_@.-]+/u)
    .filter(Boolean);

/** Whether a token matches a pattern with `*` wildcards; linear in their lengths (no expression built from input). */
export function wildcardMatch(token: string, pattern: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  if (parts.length === 1) return token === parts[0];
  if (!token.startsWith(parts[0])) return false;
  let at = parts[0].length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = token.indexOf(parts[i], at);
    if (found < 0) return false;
    at = found + parts[i].length;
  }
  const last = parts[parts.length - 1];
  return token.length - last.length >= at && token.endsWith(last);
}

/** Whether an object's properties pass one filter. */
export function matchesFilter(properties: Properties, filter: SearchFilter): boolean {
  // Own properties only: a stored object is a plain object, whose `constructor` is not a value.
  const value = ownValue(properties, filter.propertyName);
  switch (filter.operator) {
    case 'HAS_PROPERTY':
      return present(value);
    case 'NOT_HAS_PROPERTY':
      return !present(value);
  }
  if (!present(value)) return false;
  const wanted = filter.value ?? '';
  switch (filter.operator) {
    case 'EQ':
      return compare(value, wanted) === 0;
    case 'NEQ':
      return compare(value, wanted) !== 0;
    case 'LT':
      return compare(value, wanted) < 0;
    case 'LTE':
      return compare(value, wanted) <= 0;
    case 'GT':
      return compare(value, wanted) > 0;
    case 'GTE':
      return compare(value, wanted) >= 0;
    case 'BETWEEN':
      return compare(value, wanted) >= 0 && compare(value, filter.highValue ?? '') <= 0;
    case 'IN':
      return (filter.values ?? []).some((one) => compare(value, one) === 0);
    case 'NOT_IN':
      return !(filter.values ?? []).some((one) => compare(value, one) === 0);
    case 'CONTAINS_TOKEN':
      return tokensOf(value).some((token) => wildcardMatch(token, wanted));
    case 'NOT_CONTAINS_TOKEN':
      return !tokensOf(value).some((token) => wildcardMatch(token, wanted));
  }
}

/** Filter groups are alternatives (OR), the filters of a group all apply (AND); no group: everything matches. */
export function matchesSearch(properties: Properties, filterGroups: readonly { filters: readonly SearchFilter[] }[]): boolean {
  return filterGroups.length === 0 || filterGroups.some((group) => group.filters.every((filter) => matchesFilter(properties, filter)));
}

/** Orders objects by one sort (missing values last), then by id; no sort: by id. */
export function searchOrder<T extends { id: number; properties: Properties }>(sorts: readonly SearchSort[]): (a: T, b: T) => number {
  const sort = sorts[0];
  return (a, b) => {
    if (sort) {
      const x = ownValue(a.properties, sort.propertyName);
      const y = ownValue(b.properties, sort.propertyName);
      if (present(x) !== present(y)) return present(x) ? -1 : 1;
      if (present(x) && present(y)) {
        const order = compare(x, y) * (sort.direction === 'DESCENDING' ? -1 : 1);
        if (order !== 0) return order;
      }
    }
    return a.id - b.id;
  };
}

/** Why a search request exceeds the hosted CRM's bounds, or null. */
export function searchBoundsProblem(request: {
  filterGroups: readonly { filters: readonly unknown[] }[];
  limit: number;
  after: number;
  sorts: readonly unknown[];
}): string | null {
  const { filterGroups, limit, after, sorts } = request;
  if (filterGroups.length > SEARCH_LIMITS.filterGroups) return `at most ${SEARCH_LIMITS.filterGroups} filterGroups`;
  if (filterGroups.some((group) => group.filters.length > SEARCH_LIMITS.filtersPerGroup))
    return `at most ${SEARCH_LIMITS.filtersPerGroup} filters in a filterGroup`;
  if (filterGroups.reduce((sum, group) => sum + group.filters.length, 0) > SEARCH_LIMITS.filters) return `at most ${SEARCH_LIMITS.filters} filters in all`;
  if (limit > SEARCH_LIMITS.pageSize) return `limit is at most ${SEARCH_LIMITS.pageSize}`;
  if (after + limit > SEARCH_LIMITS.results) return `a search pages through at most ${SEARCH_LIMITS.results} results; narrow the filters`;
  if (sorts.length > 1) return 'at most one sort';
  return null;
}
