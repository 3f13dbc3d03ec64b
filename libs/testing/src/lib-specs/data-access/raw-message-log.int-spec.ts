import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { aSyncBatch, testInfrastructure, uniqueName } from '../../support';

const { mongoUrl } = testInfrastructure();

/** The log's shapes on the server (decision 0055): what the contract suite cannot see through the interface. */
describe('the raw message log on the MongoDB-wire server', () => {
  let database: Database;

  beforeAll(async () => {
    database = await connectDatabase(mongoUrl, uniqueName('raw_log').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  const key = { portalId: 77, appId: null, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c1' };
  const message = (externalObjectId: string, changedAt: number) => ({
    externalObjectId,
    action: 'UPSERT' as const,
    changedAt,
    properties: { n: String(changedAt) },
  });

  it('when a batch is appended, then it is one document holding its messages in order and the ids of its objects once', async () => {
    const batch = aSyncBatch({ tenant: { portalId: 77, appId: null }, messages: [message('c1', 1), message('c2', 2), message('c1', 3)] });

    await database.repositories.rawMessages.append(batch);

    const docs = await database.connection
      .collection('raw_messages')
      .find({ _id: batch.batchId as never })
      .toArray();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ count: 3, objectIds: ['c1', 'c2'] });
    expect((docs[0].messages as { changedAt: number }[]).map((m) => m.changedAt)).toEqual([1, 2, 3]);
  });

  it('when a batch would come near the 16 MB document limit, then it is kept in several documents, every message once and in order', async () => {
    const big = 'x'.repeat(60_000);
    const messages = Array.from({ length: 120 }, (_, n) => ({ ...message(n % 2 === 0 ? 'c1' : 'c2', n), properties: { n: String(n), big } }));
    const batch = aSyncBatch({ tenant: { portalId: 79, appId: null }, receivedAt: 30, messages });

    await database.repositories.rawMessages.append(batch);
    await database.repositories.rawMessages.append(batch);

    const docs = await database.connection.collection('raw_messages').find({ batchId: batch.batchId }).toArray();
    expect(docs.length).toBeGreaterThan(1);
    expect(await database.repositories.rawMessages.countForBatch(batch.batchId)).toBe(120);
    const c1 = await database.repositories.rawMessages.listForObject({ ...key, portalId: 79 }, 100);
    expect(c1.messages.map((m) => m.properties.n)).toEqual(Array.from({ length: 60 }, (_, i) => String(118 - 2 * i)));
  });

  it('when older documents of one message each are stored beside batches, then an object reads its messages from both, newest first', async () => {
    const older = {
      portalId: 78,
      appId: null,
      storeId: 'default',
      objectType: 'CONTACT',
      externalObjectId: 'c1',
      receivedAt: 10,
      source: 'v2',
      action: 'UPSERT',
    };
    await database.connection.collection('raw_messages').insertMany([
      { _id: 'old-batch:0' as never, ...older, batchId: 'old-batch', seq: 0, changedAt: 1, properties: [['n', 'old-1']], associations: null },
      { _id: 'old-batch:1' as never, ...older, batchId: 'old-batch', seq: 1, changedAt: 2, properties: [['n', 'old-2']], associations: null },
    ]);
    await database.repositories.rawMessages.append(aSyncBatch({ tenant: { portalId: 78, appId: null }, receivedAt: 20, messages: [message('c1', 5)] }));

    const listed = await database.repositories.rawMessages.listForObject({ ...key, portalId: 78 }, 10);

    expect(listed.messages.map((m) => [m.receivedAt, m.properties.n])).toEqual([
      [20, '5'],
      [10, 'old-2'],
      [10, 'old-1'],
    ]);
    expect(await database.repositories.rawMessages.countForBatch('old-batch')).toBe(2);
  });
});
