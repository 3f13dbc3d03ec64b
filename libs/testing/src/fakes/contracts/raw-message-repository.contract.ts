import type { RawMessageRepository } from '@ecomm-sync/data-access';
import { aSyncBatch, aV2Message } from '../../support';
import type { PublicOf } from '../public-of';

type RawMessages = PublicOf<RawMessageRepository>;

/** What the mapper relies on from RawMessageRepository; run against the fake and the real one. */
export function describeRawMessageRepositoryContract(name: string, make: () => RawMessages | Promise<RawMessages>): void {
  describe(`RawMessageRepository contract: ${name}`, () => {
    it('when a batch is appended twice, then each of its messages is kept once', async () => {
      const rawMessages = await make();
      const batch = aSyncBatch({
        messages: [aV2Message(), aV2Message(), aV2Message()].map((m) => ({
          externalObjectId: m.externalObjectId,
          action: m.action,
          changedAt: 1,
          properties: {},
        })),
      });
      await rawMessages.append(batch);
      await rawMessages.append(batch);
      expect(await rawMessages.countForBatch(batch.batchId)).toBe(3);
      expect(await rawMessages.countForBatch(aSyncBatch().batchId)).toBe(0);
    });

    it("when one object's messages are listed, then they come newest first, as received, limited, and no other object's or tenant's", async () => {
      const rawMessages = await make();
      const portalId = 1_000 + Math.floor(Math.random() * 1_000_000);
      const message = (changedAt: number, email: string) => ({ externalObjectId: 'c1', action: 'UPSERT' as const, changedAt, properties: { email } });
      await rawMessages.append(
        aSyncBatch({
          tenant: { portalId, appId: null },
          receivedAt: 10,
          messages: [message(1, 'a@x.co'), { ...message(1, 'other@x.co'), externalObjectId: 'c2' }],
        }),
      );
      await rawMessages.append(aSyncBatch({ tenant: { portalId, appId: null }, receivedAt: 20, messages: [message(5, 'b@x.co'), message(4, 'c@x.co')] }));
      await rawMessages.append(aSyncBatch({ tenant: { portalId, appId: 'app-1' }, receivedAt: 30, messages: [message(9, 'app@x.co')] }));
      const key = { portalId, appId: null, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c1' };
      const all = await rawMessages.listForObject(key, 10);
      expect(all.messages.map((m) => [m.receivedAt, m.changedAt, m.properties.email])).toEqual([
        [20, 4, 'c@x.co'],
        [20, 5, 'b@x.co'],
        [10, 1, 'a@x.co'],
      ]);
      expect(all.hasMore).toBe(false);
      expect(await rawMessages.listForObject(key, 2)).toMatchObject({ hasMore: true, messages: [{ changedAt: 4 }, { changedAt: 5 }] });
    });
  });
}
