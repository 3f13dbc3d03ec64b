import { countNoun } from './count-noun';

describe('countNoun', () => {
  it.each([
    ['when the count is one, then the noun is singular', 1, 'object', undefined, 'object'],
    ['when the count is zero, then the noun is plural', 0, 'object', undefined, 'objects'],
    ['when the count is more than one, then the noun is plural', 8, 'message', undefined, 'messages'],
    ['when the plural is not an added s, then the given plural is used', 2, 'entry', 'entries', 'entries'],
  ])('%s', (_case, count, singular, plural, expected) => {
    expect(countNoun(count, singular, plural)).toBe(expected);
  });
});
