import { testInfrastructure, uniqueName } from '../../support';
import { connectDatabase, CRM_EXCHANGE_RETENTION_SECONDS, type Database, type StoredCrmExchange } from '@ecomm-sync/data-access';

const { mongoUrl } = testInfrastructure();

const anExchange = (overrides: Partial<StoredCrmExchange> = {}): StoredCrmExchange => ({
  at: new Date(1_700_000_000_000),
  portalId: 1,
  account: 'builtin:1',
  baseUrl: 'http://127.0.0.1:3100',
  method: 'POST',
  path: '/crm/v3/objects/contacts/batch/update',
  attempt: 1,
  objects: ['CONTACT:crm:7'],
  status: 200,
  failed: false,
  durationMs: 12.5,
  correlationId: 'corr-1',
  error: null,
  request: { headers: { authorization: '[redacted]' }, body: '{"inputs":[]}', bytes: 13, truncated: false },
  answer: { headers: {}, body: '{"results":[]}', bytes: 14, truncated: false },
  ...overrides,
});

describe('the CRM request log against the MongoDB-wire server', () => {
  let database: Database;

  beforeAll(async () => {
    database = await connectDatabase(mongoUrl, uniqueName('crm_exchanges').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  const exchanges = () => database.repositories.crmExchanges;
  const at = (second: number) => new Date(1_700_000_000_000 + second * 1000);

  it("when exchanges are stored, then an object's are read by portal and any of its keys, newest first, and another portal's never", async () => {
    await exchanges().insertMany([
      anExchange({ portalId: 101, at: at(1), objects: ['DEAL:key:k-1'], status: 429, failed: true }),
      anExchange({ portalId: 101, at: at(2), objects: ['DEAL:key:k-1', 'DEAL:crm:55'], status: 207, failed: true }),
      anExchange({ portalId: 101, at: at(3), objects: ['DEAL:crm:55', 'CONTACT:crm:9'] }),
      anExchange({ portalId: 101, at: at(4), objects: ['DEAL:crm:56'] }),
      anExchange({ portalId: 102, at: at(5), objects: ['DEAL:key:k-1', 'DEAL:crm:55'] }),
    ]);

    const found = await exchanges().listForObject(101, ['DEAL:key:k-1', 'DEAL:crm:55'], 10);
    expect(found.map((exchange) => exchange.at.getTime())).toEqual([at(3), at(2), at(1)].map((date) => date.getTime()));
    expect(found.every((exchange) => exchange.portalId === 101)).toBe(true);
    expect(found[1]).toMatchObject({ status: 207, failed: true, correlationId: 'corr-1', request: { headers: { authorization: '[redacted]' } } });
    expect(typeof found[0].id).toBe('string');
    expect(await exchanges().listForObject(101, ['DEAL:key:k-1', 'DEAL:crm:55'], 2)).toHaveLength(2);
    expect(await exchanges().listForObject(101, [], 10)).toEqual([]);
  });

  it("when exchanges failed, then an account's recent failures are read newest first, and every account's without one", async () => {
    await exchanges().insertMany([
      anExchange({ account: 'builtin:201', portalId: 201, at: at(10), status: 500, failed: true }),
      anExchange({ account: 'builtin:201', portalId: 201, at: at(11), status: 200, failed: false }),
      anExchange({ account: 'builtin:201', portalId: 201, at: at(12), status: null, failed: true, error: 'timed out' }),
      anExchange({ account: 'hosted:https://crm.example:202', portalId: 202, at: at(13), status: 401, failed: true }),
    ]);

    const ours = await exchanges().recentFailures({ account: 'builtin:201', limit: 10 });
    expect(ours.map((exchange) => exchange.status)).toEqual([null, 500]);
    const all = await exchanges().recentFailures({ limit: 2 });
    expect(all.map((exchange) => exchange.account)).toEqual(['hosted:https://crm.example:202', 'builtin:201']);
  });

  it('when a batch is written, then the documents given are left as they were (no _id added to them)', async () => {
    const given = [anExchange({ portalId: 301 })];
    await exchanges().insertMany(given);
    expect(given[0]).not.toHaveProperty('_id');
  });

  it('when the indexes are read, then retention is a 7-day TTL on the send time, and the object and failure queries have theirs', async () => {
    const indexes = await database.connection.collection('crm_exchanges').indexes();
    const byKey = (key: object) => indexes.find((index) => JSON.stringify(index.key) === JSON.stringify(key));
    expect(byKey({ at: 1 })).toMatchObject({ expireAfterSeconds: CRM_EXCHANGE_RETENTION_SECONDS });
    expect(CRM_EXCHANGE_RETENTION_SECONDS).toBe(7 * 24 * 3600);
    expect(byKey({ portalId: 1, objects: 1, at: -1 })).toBeDefined();
    expect(byKey({ account: 1, failed: 1, at: -1 })).toBeDefined();
    expect(byKey({ failed: 1, at: -1 })).toBeDefined();
  });
});
