import type { RawMessageRepository } from '@ecomm-sync/data-access';
import { aSyncBatch, aV2Message } from '@ecomm-sync/testing';
import type { PublicOf } from '../public-of';

type RawMessages = PublicOf<RawMessageRepository>;

/** What the mapper relies on from RawMessageRepository; run against the fake and the real one. */
export function describeRawMessageRepositoryContract(name: string, make: () => RawMessages | Promise<RawMessages>): void {
  describe(`RawMessageRepository contract: ${name}`, () => {
    it('when a batch is appended twice, then each of its messages is kept once', async () => {
      const rawMessages = await make();
      const batch = aSyncBatch({ messages: [aV2Message(), aV2Message(), aV2Message()].map((m) => ({ ...m, changedAt: 1, properties: {} })) });
      await rawMessages.append(batch);
      await rawMessages.append(batch);
      expect(await rawMessages.countForBatch(batch.batchId)).toBe(3);
      expect(await rawMessages.countForBatch(aSyncBatch().batchId)).toBe(0);
    });
  });
}
