import { LabelCap, OTHER_LABEL } from './label-cap';

describe('LabelCap', () => {
  it.each([
    ['values within the limit', ['a', 'b'], ['a', 'b']],
    ['a value seen before the limit was reached', ['a', 'b', 'c', 'a'], ['a', 'b', OTHER_LABEL, 'a']],
    ['new values past the limit', ['a', 'b', 'c', 'd'], ['a', 'b', OTHER_LABEL, OTHER_LABEL]],
  ])('when it gets %s, then it keeps at most two distinct values', (_case, raws, expected) => {
    const cap = new LabelCap(2);
    expect(raws.map((raw) => cap.value(raw))).toEqual(expected);
  });
});
