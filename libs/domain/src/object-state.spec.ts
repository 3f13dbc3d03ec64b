import type { InboundMessage } from '@ecomm-sync/contracts';
import { emptyObjectState, generationOf, isLive, mergeMessage, mergeMessages, newestChangeOf, type RawObjectState } from './object-state';

const upsert = (changedAt: number | null, properties: InboundMessage['properties'], associations?: InboundMessage['associations']): InboundMessage => ({
  externalObjectId: 'x',
  action: 'UPSERT',
  changedAt,
  properties,
  ...(associations ? { associations } : {}),
});
const remove = (changedAt: number | null): InboundMessage => ({ externalObjectId: 'x', action: 'DELETE', changedAt, properties: {} });
const values = (state: RawObjectState) => Object.fromEntries(Object.entries(state.properties).map(([name, entry]) => [name, entry.value]));

describe('mergeMessage', () => {
  it.each([
    ['a newer value replaces the stored one', [upsert(1, { a: 'old' }), upsert(2, { a: 'new' })], { a: 'new' }],
    ['an older value is ignored', [upsert(2, { a: 'new' }), upsert(1, { a: 'old' })], { a: 'new' }],
    ['properties merge one by one', [upsert(2, { a: 'A2' }), upsert(1, { a: 'A1', b: 'B1' })], { a: 'A2', b: 'B1' }],
    ['equal changedAt resolves the same in any order (larger value)', [upsert(5, { a: 'x' }), upsert(5, { a: 'y' })], { a: 'y' }],
    ['equal changedAt, other order', [upsert(5, { a: 'y' }), upsert(5, { a: 'x' })], { a: 'y' }],
    ['null clears a property when newer', [upsert(1, { a: 'v' }), upsert(2, { a: null })], { a: null }],
    [
      'equal changedAt, a value and a clear: the value stays',
      [upsert(5, { a: 'v', n: 7, f: false }), upsert(5, { a: null, n: null, f: null })],
      { a: 'v', n: 7, f: false },
    ],
    ['equal changedAt, a clear first: the value wins', [upsert(5, { a: null, n: null }), upsert(5, { a: 'v', n: 7 })], { a: 'v', n: 7 }],
    ['properties older than a delete are dropped', [upsert(1, { a: 'v', b: 'w' }), remove(2)], {}],
    ['an upsert older than the delete is ignored', [remove(2), upsert(1, { a: 'v' })], {}],
    ['an upsert newer than the delete recreates', [upsert(1, { a: 'old', b: 'gone' }), remove(2), upsert(3, { a: 'new' })], { a: 'new' }],
  ])('%s', (_name, messages, expected) => {
    expect(values(mergeMessages(emptyObjectState(), messages, 1000).state)).toEqual(expected);
  });

  it.each([
    ['upserted', [upsert(1, { a: 'v' })], true],
    ['deleted after the upsert', [upsert(1, { a: 'v' }), remove(2)], false],
    ['deleted, then upserted again', [upsert(1, {}), remove(2), upsert(3, {})], true],
    ['deleted before a newer upsert arrived first', [upsert(3, {}), remove(2)], true],
    ['only deleted', [remove(2)], false],
  ])('liveness when %s', (_name, messages, live) => {
    expect(isLive(mergeMessages(emptyObjectState(), messages, 1000).state)).toBe(live);
  });

  it.each([
    [
      'two upserts without changedAt: the later in the batch wins, whatever its value',
      [upsert(null, { stage: 'checkout_pending' }), upsert(null, { stage: 'checkout_completed' })],
      { stage: 'checkout_completed' },
      true,
    ],
    [
      'a delete, then an upsert, without changedAt: the upsert recreates',
      [upsert(null, { a: 'old' }), remove(null), upsert(null, { b: 'new' })],
      { b: 'new' },
      true,
    ],
    ['an upsert, then a delete, without changedAt: deleted', [upsert(null, { a: 'v' }), remove(null)], {}, false],
    ['a clear after a value without changedAt: cleared', [upsert(null, { a: 'v' }), upsert(null, { a: null })], { a: null }, true],
    ['sent times still decide over the order of the batch', [upsert(null, { a: 'received' }), upsert(999, { a: 'sent' })], { a: 'received' }, true],
  ])('when one batch holds several messages of an object without changedAt, then %s', (_name, messages, expected, live) => {
    const { state } = mergeMessages(emptyObjectState(), messages, 1000);
    expect(values(state)).toEqual(expected);
    expect(isLive(state)).toBe(live);
    expect(newestChangeOf(state)).toBe(1000);
  });

  it.each([
    [
      'its first message sets a property',
      [upsert(null, { phone: 'new' }), upsert(null, { x: 1 }), upsert(null, { y: 2 })],
      { phone: 'new', a: 'a', x: 1, y: 2 },
      true,
    ],
    ['it deletes first and upserts after', [remove(null), upsert(null, { b: 'b' }), upsert(null, { c: 'c' })], { b: 'b', c: 'c' }, true],
    ['it upserts and deletes last', [upsert(null, { b: 'b' }), upsert(null, { c: 'c' }), remove(null)], {}, false],
  ])(
    'when a batch received a millisecond after another holds several untimed messages and %s, then it wins over the earlier batch',
    (_name, messages, expected, live) => {
      const earlier = mergeMessages(emptyObjectState(), [upsert(null, { phone: 'old', a: 'a' })], 999).state;

      const { state } = mergeMessages(earlier, messages, 1000);

      expect(values(state)).toEqual(expected);
      expect(isLive(state)).toBe(live);
    },
  );

  it('takes the receipt time when the message has no changedAt', () => {
    const { state } = mergeMessage(emptyObjectState(), upsert(null, { a: 'v' }), 1234);
    expect(state.properties.a).toEqual({ value: 'v', changedAt: 1234 });
  });

  it('reports no change for a duplicate message', () => {
    const first = mergeMessage(emptyObjectState(), upsert(1, { a: 'v' }, { DEAL: ['d1'] }), 0);
    expect(mergeMessage(first.state, upsert(1, { a: 'v' }, { DEAL: ['d1'] }), 0).changed).toBe(false);
  });

  it('keeps association lists last-writer-wins, sorted and without duplicates', () => {
    const { state } = mergeMessages(emptyObjectState(), [upsert(2, {}, { CONTACT: ['c2', 'c1', 'c2'] }), upsert(1, {}, { CONTACT: ['c9'] })], 0);
    expect(state.associations.CONTACT).toEqual({ value: ['c1', 'c2'], changedAt: 2 });
  });

  it('numbers incarnations by the newest delete', () => {
    const { state } = mergeMessages(emptyObjectState(), [upsert(1, {}), remove(7), upsert(9, {})], 0);
    expect(generationOf(state)).toBe(7);
  });
});

describe('sender property names that are Object.prototype members', () => {
  // JSON.parse makes `__proto__` an own key, as a request body does.
  const named = (changedAt: number, value: string) =>
    upsert(changedAt, JSON.parse(`{"constructor":"${value}","toString":"${value}","hasOwnProperty":"${value}","valueOf":"${value}","__proto__":"${value}"}`));

  it.each([
    ['a first message', [named(1, 'v1')], 'v1'],
    ['a newer message', [named(1, 'v1'), named(2, 'v2')], 'v2'],
    ['an older message after a newer one', [named(2, 'v2'), named(1, 'v1')], 'v2'],
  ])('when %s names them, then they are merged like any other property', (_case, messages, expected) => {
    const { state } = mergeMessages(emptyObjectState(), messages, 0);
    expect(Object.keys(state.properties).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']);
    for (const name of Object.keys(state.properties))
      expect(Object.getOwnPropertyDescriptor(state.properties, name)?.value).toEqual({ value: expected, changedAt: expect.any(Number) });
    expect(Object.getPrototypeOf(state.properties)).toBe(Object.prototype);
  });
});
