import type { SyncBatchMessage } from '@ecomm-sync/contracts';
import {
  asBroker,
  asRepositories,
  aTenant,
  aV1Message,
  aV2Message,
  aV2Submission,
  FakeBroker,
  FakeIntakePaceRepository,
  FakeStoreRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { TtlCache } from '@ecomm-sync/domain';
import { AcceptSyncBatchUseCase } from './accept-sync-batch.use-case';
import { IntakePace } from './intake-pace';
import { LaneShares } from './lane-shares';

describe('AcceptSyncBatchUseCase', () => {
  const tenant = aTenant();
  let stores: FakeStoreRepository;
  let broker: FakeBroker;
  let useCase: AcceptSyncBatchUseCase;

  beforeEach(async () => {
    stores = new FakeStoreRepository();
    broker = new FakeBroker();
    useCase = new AcceptSyncBatchUseCase({ broker: asBroker(broker), stores: asRepositories({ stores }).stores, logger: recordingLogger().logger });
    await stores.upsert(tenant, { id: 'eu', label: 'Europe' });
  });

  const batches = () => broker.bodiesTo<SyncBatchMessage>('sync.batch.*');

  describe('v1', () => {
    it('when v1 messages are accepted, then one batch of the store "default" goes to the object type, in the common message shape', async () => {
      const upsert = aV1Message({ integratorObjectId: 'c-1', changeOccurredTimestamp: 1_700_000_000_123, propertyNameToValues: { email: 'a@example.com' } });
      const deletion = aV1Message({ integratorObjectId: 'c-2', action: 'DELETE', propertyNameToValues: undefined });

      await useCase.acceptV1(tenant, 'CONTACT', [upsert, deletion]);

      expect(broker.routingKeys()).toEqual(['sync.batch.CONTACT']);
      expect(batches()).toEqual([
        {
          batchId: expect.any(String),
          tenant,
          storeId: 'default',
          objectType: 'CONTACT',
          source: 'v1',
          receivedAt: expect.any(Number),
          messages: [
            { externalObjectId: 'c-1', action: 'UPSERT', changedAt: 1_700_000_000_123, properties: { email: 'a@example.com' } },
            { externalObjectId: 'c-2', action: 'DELETE', changedAt: deletion.changeOccurredTimestamp, properties: {} },
          ],
        },
      ]);
    });

    it.each<{ sent: number | string | null | undefined; changedAt: number | null }>([
      { sent: 1_700_000_000_000, changedAt: 1_700_000_000_000 },
      { sent: '1700000000000', changedAt: 1_700_000_000_000 },
      { sent: '2023-11-14T22:13:20.000Z', changedAt: 1_700_000_000_000 },
      { sent: undefined, changedAt: null },
      { sent: null, changedAt: null },
      { sent: 1_700_000_000_000.789, changedAt: 1_700_000_000_000 },
    ])('when the change time sent is $sent, then the message carries $changedAt', async ({ sent, changedAt }) => {
      await useCase.acceptV1(tenant, 'DEAL', [aV1Message({ changeOccurredTimestamp: sent as number })]);

      expect(batches()[0].messages[0].changedAt).toBe(changedAt);
    });

    it.each([
      ['in microseconds (year 56302)', 1_714_564_800_000_000],
      ['a numeric string two days ahead', String(Date.now() + 2 * 86_400_000)],
    ])('when a change time is %s, then it is refused with 400 saying to send epoch milliseconds, and nothing is published', async (_case, sent) => {
      await expect(useCase.acceptV1(tenant, 'DEAL', [aV1Message({ changeOccurredTimestamp: sent as number })])).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^body\/0\/changeOccurredTimestamp is .*, more than a day after now .*epoch milliseconds \(not microseconds\)/),
      });
      expect(batches()).toEqual([]);
    });

    it('when a change time is an hour ahead (clocks apart), then it is taken as sent', async () => {
      const sent = Date.now() + 3_600_000;

      await useCase.acceptV1(tenant, 'DEAL', [aV1Message({ changeOccurredTimestamp: sent })]);

      expect(batches()[0].messages[0].changedAt).toBe(sent);
    });

    it.each([-1, 'not a time', '1969-12-31T23:59:59.000Z'])(
      'when a change time is %p, then the request is refused with 400 naming the field and nothing is published',
      async (sent) => {
        const messages = [aV1Message(), aV1Message({ changeOccurredTimestamp: sent as number })];

        await expect(useCase.acceptV1(tenant, 'DEAL', messages)).rejects.toMatchObject({
          status: 400,
          message: expect.stringContaining('body/1/changeOccurredTimestamp'),
        });

        expect(broker.published).toEqual([]);
      },
    );
  });

  describe('v2', () => {
    it('when a submission to a known store is accepted, then its batch keeps the store and the associations', async () => {
      const lineItem = aV2Message({ externalObjectId: 'l-1', associations: { DEAL: ['d-1'] } });

      await useCase.acceptV2(tenant, aV2Submission('LINE_ITEM', [lineItem], 'eu'));

      expect(broker.routingKeys()).toEqual(['sync.batch.LINE_ITEM']);
      expect(batches()[0]).toMatchObject({
        tenant,
        storeId: 'eu',
        objectType: 'LINE_ITEM',
        source: 'v2',
        messages: [{ externalObjectId: 'l-1', associations: { DEAL: ['d-1'] } }],
      });
    });

    it('when a message sends changedAt, properties and associations as null, then its batch carries them as left out', async () => {
      const nulls = aV2Message({ externalObjectId: 'd-1', changedAt: null, properties: null, associations: null });

      await useCase.acceptV2(tenant, aV2Submission('DEAL', [nulls], 'eu'));

      expect(batches()[0].messages).toEqual([{ externalObjectId: 'd-1', action: 'UPSERT', changedAt: null, properties: {} }]);
    });

    it.each([
      { sent: { CONTACT: ['c-1'], PRODUCT: null, LINE_ITEM: null }, published: { associations: { CONTACT: ['c-1'] } } },
      { sent: { CONTACT: null }, published: {} },
    ])('when a message sends association types as null ($sent), then they are left out', async ({ sent, published }) => {
      await useCase.acceptV2(tenant, aV2Submission('DEAL', [aV2Message({ externalObjectId: 'd-2', associations: sent })], 'eu'));

      expect(batches()[0].messages).toEqual([{ externalObjectId: 'd-2', action: 'UPSERT', changedAt: expect.any(Number), properties: {}, ...published }]);
    });

    it('when a submission holds no messages, then it is accepted and nothing is published; an unknown store is still refused', async () => {
      await useCase.acceptV2(tenant, aV2Submission('CONTACT', [], 'eu'));

      expect(broker.published).toEqual([]);
      await expect(useCase.acceptV2(tenant, aV2Submission('CONTACT', [], 'us'))).rejects.toMatchObject({ status: 400 });
    });

    it.each([
      { whose: 'an unknown store', submitter: tenant, storeId: 'us' },
      { whose: 'a store of another tenant', submitter: aTenant(), storeId: 'eu' },
    ])('when a submission names $whose, then it is refused with 400 and nothing is published', async ({ submitter, storeId }) => {
      await expect(useCase.acceptV2(submitter, aV2Submission('CONTACT', [aV2Message()], storeId))).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining(`"${storeId}"`),
      });

      expect(broker.published).toEqual([]);
    });

    it('when a message names an association its object type has not (a contact naming a deal), then it is refused with 400 naming it and nothing is published', async () => {
      const contact = aV2Message({ externalObjectId: 'c-1', associations: { DEAL: ['d-1'] } });

      await expect(useCase.acceptV2(tenant, aV2Submission('CONTACT', [aV2Message(), contact], 'eu'))).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^body\/messages\/1\/associations names DEAL: a CONTACT has no associations/),
      });

      expect(broker.published).toEqual([]);
    });

    it('when known stores are cached, then a miss is remembered for the time of the cache, while an uncached check finds the store at once', async () => {
      const cached = new AcceptSyncBatchUseCase({
        broker: asBroker(broker),
        stores: asRepositories({ stores }).stores,
        logger: recordingLogger().logger,
        knownStores: new TtlCache(60_000),
      });
      await expect(cached.acceptV2(tenant, aV2Submission('CONTACT', [aV2Message()], 'us'))).rejects.toMatchObject({ status: 400 });
      await stores.upsert(tenant, { id: 'us', label: 'US' });

      await expect(cached.acceptV2(tenant, aV2Submission('CONTACT', [aV2Message()], 'us'))).rejects.toMatchObject({ status: 400 });

      await expect(useCase.acceptV2(tenant, aV2Submission('CONTACT', [aV2Message()], 'us'))).resolves.toBeUndefined();
    });
  });

  it('when the broker does not confirm, then the answer is 503 and nothing counts as accepted', async () => {
    broker.failNextPublishes(1);

    await expect(useCase.acceptV2(tenant, aV2Submission('CONTACT', [aV2Message()], 'eu'))).rejects.toMatchObject({ status: 503 });

    expect(broker.published).toEqual([]);
  });

  it('when a batch is larger than the broker takes (a body limit set above it), then the answer is 413 saying to send fewer, not to send it again', async () => {
    const small = new FakeBroker({ maxMessageBytes: 1_000 });
    const limited = new AcceptSyncBatchUseCase({ broker: asBroker(small), stores: asRepositories({ stores }).stores, logger: recordingLogger().logger });
    const large = aV2Submission('CONTACT', [aV2Message({ properties: { note: 'x'.repeat(2_000) } })], 'eu');

    await expect(limited.acceptV2(tenant, large)).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/more than the broker takes \(1000\); send fewer or smaller messages/),
    });

    expect(small.published).toEqual([]);
  });

  /** A portal's share of the interactive lanes: 2 objects at once, then 1 a second (the clock stands still). */
  const withLaneShare = () =>
    new AcceptSyncBatchUseCase({
      broker: asBroker(broker),
      stores: asRepositories({ stores }).stores,
      logger: recordingLogger().logger,
      lanes: new LaneShares({ objectsPerSecond: 1, burstObjects: 2 }, () => 0, 2),
    });
  const two = aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'a' }), aV2Message({ externalObjectId: 'b' })], 'eu');

  it('when a portal sends beyond its share of the interactive lane, then the batches beyond it go bulk while another portal stays interactive', async () => {
    const other = aTenant({ portalId: tenant.portalId + 1 });
    await stores.upsert(other, { id: 'eu', label: 'Europe' });
    const shared = withLaneShare();

    await shared.acceptV2(tenant, two);
    await shared.acceptV2(tenant, two);
    await shared.acceptV2(other, two);

    expect(broker.published.map(({ lane }) => lane)).toEqual(['interactive', 'bulk', 'interactive']);
  });

  it('when an interactive batch cannot be published, then its lane share is the portal’s again: the retry stays interactive', async () => {
    const shared = withLaneShare();
    broker.failNextPublishes(1);

    await expect(shared.acceptV2(tenant, two)).rejects.toMatchObject({ status: 503 });
    await shared.acceptV2(tenant, two);

    expect(broker.published.map(({ lane }) => lane)).toEqual(['interactive']);
  });

  describe('intake pace', () => {
    const other = aTenant({ portalId: tenant.portalId + 1 });
    const full = aV2Submission(
      'CONTACT',
      Array.from({ length: 200 }, (_, i) => aV2Message({ externalObjectId: `o-${i}` })),
      'eu',
    );
    let waits: { ms: number; publishedBefore: number }[];
    let paced: AcceptSyncBatchUseCase;

    /** 200 objects a second, 200 at once, a batch waits at most 1 s; the clock stands still and `wait` stands for the waiting. */
    const pacedWith = (wait: (ms: number, signal?: AbortSignal) => Promise<void>) =>
      new AcceptSyncBatchUseCase({
        broker: asBroker(broker),
        stores: asRepositories({ stores }).stores,
        logger: recordingLogger().logger,
        intake: new IntakePace({ objectsPerSecond: 200, burstObjects: 200, maxWaitMs: 1000, maxHeldBytes: 1_000_000 }, new FakeIntakePaceRepository(), {
          clock: () => 0,
          wait,
        }),
      });

    beforeEach(async () => {
      await stores.upsert(other, { id: 'eu', label: 'Europe' });
      waits = [];
      paced = pacedWith(async (ms) => void waits.push({ ms, publishedBefore: broker.published.length }));
    });

    it('when a portal sends beyond its pace, then its next batch waits for the refill before it is published, and another portal does not', async () => {
      await paced.acceptV2(tenant, full, { bytes: 30_000 });
      await paced.acceptV2(tenant, full, { bytes: 30_000 });
      await paced.acceptV2(other, full, { bytes: 30_000 });

      expect(waits).toEqual([{ ms: 1000, publishedBefore: 1 }]);
      expect(broker.published).toHaveLength(3);
    });

    it('when a batch would wait longer than the longest wait, then it gets 429 with Retry-After and nothing is published', async () => {
      await paced.acceptV2(tenant, full, { bytes: 30_000 });
      await paced.acceptV2(tenant, full, { bytes: 30_000 });

      const refused = paced.acceptV2(tenant, full, { bytes: 30_000 });

      await expect(refused).rejects.toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
      await expect(refused).rejects.toThrow(/faster than 200 objects a second.*Nothing of this batch was accepted/);
      expect(broker.published).toHaveLength(2);
    });

    it('when the sender goes away while its batch waits, then nothing is published and its objects are the portal’s again', async () => {
      const gone = new AbortController();
      const waited: number[] = [];
      // A wait with a signal lasts until it aborts; one without ends at once.
      const abandoning = pacedWith((ms, signal) => {
        waited.push(ms);
        if (!signal) return Promise.resolve();
        return new Promise((_, reject) => {
          const away = () => reject(new Error('the sender went away'));
          if (signal.aborted) away();
          else signal.addEventListener('abort', away);
        });
      });
      await abandoning.acceptV2(tenant, full, { bytes: 30_000 });

      const abandoned = abandoning.acceptV2(tenant, full, { bytes: 30_000, signal: gone.signal });
      gone.abort();

      await expect(abandoned).rejects.toMatchObject({ status: 499, message: expect.stringMatching(/closed the connection.*nothing of it was accepted/) });
      expect(broker.published).toHaveLength(1);
      // Its 200 objects were returned: the next batch waits 1 s, as the abandoned one did, and is published.
      await abandoning.acceptV2(tenant, full, { bytes: 30_000 });
      expect(waited).toEqual([1000, 1000]);
      expect(broker.published).toHaveLength(2);
    });

    it('when a paced batch cannot be published, then its objects are the portal’s again: the retry does not wait', async () => {
      broker.failNextPublishes(1);

      await expect(paced.acceptV2(tenant, full, { bytes: 30_000 })).rejects.toMatchObject({ status: 503 });
      await paced.acceptV2(tenant, full, { bytes: 30_000 });

      expect(waits).toEqual([]);
      expect(broker.published).toHaveLength(1);
    });

    it('when the store is deleted while a batch waits for its pace, then the batch is refused naming it, nothing is published, and its objects are the portal’s again', async () => {
      const waited: number[] = [];
      const deleting = pacedWith(async (ms) => {
        waited.push(ms);
        if (waited.length === 1) await stores.remove(tenant, 'eu'); // the tenant deletes the store meanwhile
      });
      await deleting.acceptV2(tenant, full, { bytes: 30_000 });

      await expect(deleting.acceptV2(tenant, full, { bytes: 30_000 })).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^Unknown store "eu"/),
      });

      expect(broker.published).toHaveLength(1);
      await stores.upsert(tenant, { id: 'eu', label: 'Europe' });
      await deleting.acceptV2(tenant, full, { bytes: 30_000 });
      expect(waited).toEqual([1000, 1000]); // the refused batch's objects were given back: the next one waits as it did
    });

    it('when a v1 batch is beyond the pace, then it waits too', async () => {
      await paced.acceptV1(
        tenant,
        'CONTACT',
        Array.from({ length: 150 }, () => aV1Message()),
        { bytes: 20_000 },
      );
      await paced.acceptV1(
        tenant,
        'CONTACT',
        Array.from({ length: 100 }, () => aV1Message()),
        { bytes: 20_000 },
      );

      expect(waits).toEqual([{ ms: 250, publishedBefore: 1 }]);
      expect(broker.published).toHaveLength(2);
    });
  });
});
