import fc from 'fast-check';
import type { InboundMessage } from '@ecomm-sync/contracts';
import { emptyObjectState, isLive, mergeMessages } from './object-state';

/** Few timestamps, names and values, so that ties and overwrites happen often. */
const message: fc.Arbitrary<InboundMessage> = fc
  .record({
    externalObjectId: fc.constant('x'),
    action: fc.constantFrom('UPSERT' as const, 'UPSERT' as const, 'DELETE' as const),
    changedAt: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
    properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(fc.constantFrom('p', 'q', 'r'), fc.integer({ min: 0, max: 3 }), fc.constant(null)), {
      maxKeys: 3,
    }),
    associations: fc.option(fc.record({ CONTACT: fc.array(fc.constantFrom('c1', 'c2', 'c3'), { maxLength: 3 }) }), { nil: undefined }),
  })
  .map((m) => (m.action === 'DELETE' ? { ...m, properties: {}, associations: undefined } : m));

/** The messages, each at least once, in a random order, some twice. */
const deliveries = fc.array(message, { minLength: 1, maxLength: 12 }).chain((messages) =>
  fc
    .tuple(
      fc.shuffledSubarray(messages, { minLength: messages.length, maxLength: messages.length }),
      fc.array(fc.constantFrom(...messages), { maxLength: 5 }),
      fc.array(fc.nat(), { maxLength: 5 }),
    )
    .map(([shuffled, extra, positions]) => {
      const delivered = [...shuffled];
      extra.forEach((duplicate, i) => delivered.splice((positions[i] ?? 0) % (delivered.length + 1), 0, duplicate));
      return { messages, delivered };
    }),
);

describe('merging is order- and duplicate-independent (property)', () => {
  it('any delivery order, with duplicates, converges to the same state', () => {
    fc.assert(
      fc.property(deliveries, ({ messages, delivered }) => {
        const inOrder = mergeMessages(emptyObjectState(), messages, 1000).state;
        const asDelivered = mergeMessages(emptyObjectState(), delivered, 1000).state;
        expect(asDelivered).toEqual(inOrder);
        expect(isLive(asDelivered)).toBe(isLive(inOrder));
      }),
      { numRuns: 500 },
    );
  });
});
