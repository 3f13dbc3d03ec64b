import { chunksOnceEach } from './http-request-helpers';

const ids = (chunks: { chunk: string[]; from: number }[]) => chunks.map(({ chunk, from }) => `${from}:${chunk.join(',')}`);

describe('chunks of a batch call, none naming one record twice', () => {
  it.each<[string, string[], string[]]>([
    ['when every record comes once, then chunks are cut at the size only', ['a', 'b', 'c', 'd', 'e'], ['0:a,b', '2:c,d', '4:e']],
    ['when a record comes again within a chunk, then its second input starts the next chunk', ['a', 'b', 'a', 'c'], ['0:a,b', '2:a,c']],
    ['when a record comes three times in a row, then each input has a chunk of its own, in order', ['a', 'a', 'a'], ['0:a', '1:a', '2:a']],
    ['when a record comes again in a later chunk, then the chunks are as without it', ['a', 'b', 'a'], ['0:a,b', '2:a']],
  ])('%s', (_case, items, expected) => {
    expect(ids(chunksOnceEach(items, (item) => item, 2))).toEqual(expected);
  });

  it('when inputs name no record (creates), then chunks are cut at the size only', () => {
    expect(ids(chunksOnceEach(['x', 'x', 'x'], () => null, 2))).toEqual(['0:x,x', '2:x']);
    expect(ids(chunksOnceEach(['x', 'x', 'x'], undefined, 2))).toEqual(['0:x,x', '2:x']);
  });
});
