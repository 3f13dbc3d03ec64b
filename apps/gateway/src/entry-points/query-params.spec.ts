import { booleanParam, textParam } from './query-params';

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

describe('textParam', () => {
  it.each([
    ['absent', {}, undefined],
    ['empty', { appId: '' }, undefined],
    ['given once', { appId: '2000001' }, '2000001'],
  ])('when the parameter is %s, then it reads as the table says', (_case, query, expected) => {
    expect(textParam(query, 'appId')).toBe(expected);
  });

  it.each([
    ['repeated (an array)', { appId: ['2000001', '2000001'] }],
    ['an object (appId[x]=1)', { appId: { x: '1' } }],
  ])('when the parameter is %s, then it is a 400 saying to give it once', (_case, query) => {
    expect(() => textParam(query, 'appId')).toThrow(expect.objectContaining({ status: 400, message: 'Query parameter appId must be given once, as text' }));
  });
});
