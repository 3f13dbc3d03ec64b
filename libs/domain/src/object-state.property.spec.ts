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

/**
 * Batches of messages, as the mapper merges them: each batch in its sender's order, at its receipt
 * time (often equal to another batch's, or to a sent changedAt, so that ties happen).
 */
const batch = fc.record({ messages: fc.array(message, { minLength: 1, maxLength: 4 }), receivedAt: fc.integer({ min: 4, max: 8 }) });

/** The batches, each at least once, in a random order, some twice (a redelivery). */
const deliveries = fc.array(batch, { minLength: 1, maxLength: 6 }).chain((batches) =>
  fc
    .tuple(
      fc.shuffledSubarray(batches, { minLength: batches.length, maxLength: batches.length }),
      fc.array(fc.constantFrom(...batches), { maxLength: 3 }),
      fc.array(fc.nat(), { maxLength: 3 }),
    )
    .map(([shuffled, extra, positions]) => {
      const delivered = [...shuffled];
      extra.forEach((duplicate, i) => delivered.splice((positions[i] ?? 0) % (delivered.length + 1), 0, duplicate));
      return { batches, delivered };
    }),
);

const mergeAll = (batches: readonly { messages: InboundMessage[]; receivedAt: number }[]) =>
  batches.reduce((state, { messages, receivedAt }) => mergeMessages(state, messages, receivedAt).state, emptyObjectState());

describe('merging is order- and duplicate-independent (property)', () => {
  it('when batches arrive in any order, some twice, then they converge to the same state', () => {
    fc.assert(
      fc.property(deliveries, ({ batches, delivered }) => {
        const inOrder = mergeAll(batches);
        const asDelivered = mergeAll(delivered);
        expect(asDelivered).toEqual(inOrder);
        expect(isLive(asDelivered)).toBe(isLive(inOrder));
      }),
      { numRuns: 500 },
    );
  });
});
