import { booleanParam } from './query-params';

describe('booleanParam', () => {
  it.each([
    ['absent', undefined, false],
    ['true', 'true', true],
    ['True (Python’s str(True))', 'True', true],
    ['TRUE', 'TRUE', true],
    ['1 (PHP’s http_build_query)', '1', true],
    ['false', 'false', false],
    ['False', 'False', false],
    ['0', '0', false],
  ])('when the flag is %s, then it reads as the table says', (_case, value, expected) => {
    expect(booleanParam(value === undefined ? {} : { flag: value }, 'flag', false)).toBe(expected);
  });

  it.each([
    ['a word', 'yes'],
    ['empty', ''],
    ['repeated (an array)', ['true', 'false']],
  ])('when the flag is %s, then it is a 400 that says what is taken', (_case, value) => {
    const thrown = (() => {
      try {
        booleanParam({ flag: value }, 'flag', false);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toMatchObject({ status: 400, message: expect.stringMatching(/^Query parameter flag must be true or false \(or 1 or 0\), got/) });
  });
});
