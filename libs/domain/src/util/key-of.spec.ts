import { keyOf, keyPrefixOf, type KeyPart } from './key-of';

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

describe('keyPrefixOf', () => {
  it.each<[string, KeyPart[], KeyPart[], boolean]>([
    ["a tenant's store", [42, 'app-1'], [42, 'app-1', 'web'], true],
    ['a direct-mode tenant', [42, null], [42, null, 'default'], true],
    ['the key itself, no part more', [42, 'app-1'], [42, 'app-1'], false],
    ['another application whose id starts alike', [42, 'app-1'], [42, 'app-10', 'web'], false],
    ['another portal whose number starts alike', [4], [42, 'app-1', 'web'], false],
    ['no parts: every key', [], [42, 'app-1', 'web'], true],
  ])('when the prefix is of %s, then a key starts with it only when it has those parts first', (_case, parts, key, starts) => {
    expect(keyOf(...key).startsWith(keyPrefixOf(...parts))).toBe(starts);
  });
});
