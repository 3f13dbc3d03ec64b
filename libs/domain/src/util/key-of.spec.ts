import { keyOf, type KeyPart } from './key-of';

describe('keyOf', () => {
  it.each<[string, KeyPart[], string]>([
    ['a tenant in direct mode', [42, null], '[42,null]'],
    ['an object key (the stored _id of data-access)', [42, 'app-1', 'default', 'CONTACT', 'c-1'], '[42,"app-1","default","CONTACT","c-1"]'],
    ['parts with quotes, colons and bars', ['a"b', 'x:y|z'], '["a\\"b","x:y|z"]'],
    ['no parts', [], '[]'],
  ])('when the parts are %s, then the key is their JSON array', (_case, parts, key) => {
    expect(keyOf(...parts)).toBe(key);
  });

  it.each<[string, KeyPart[], KeyPart[]]>([
    ['a separator moved between parts', ['a:b', 'c'], ['a', 'b:c']],
    ['a number and its digits as text', [1, 'x'], ['1', 'x']],
    ['null and the text null', [null], ['null']],
    ['one part and two', ['a,b'], ['a', 'b']],
  ])('when two keys differ by %s, then they differ', (_case, a, b) => {
    expect(keyOf(...a)).not.toBe(keyOf(...b));
  });
});
