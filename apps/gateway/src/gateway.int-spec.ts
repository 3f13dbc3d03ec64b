import amqplib from 'amqplib';
import request from 'supertest';
import type { SyncBatchMessage } from '@ecomm-sync/contracts';
import type { Database } from '@ecomm-sync/data-access';
import { namesOf } from '@ecomm-sync/messaging';
import { aV1Contact, aV2Message, aV2Submission, seedPortal, testInfrastructure } from '@ecomm-sync/testing';
import type { Express } from 'express';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const { amqpUrl } = testInfrastructure();

describe('gateway against real MongoDB and RabbitMQ', () => {
  let fixture: GatewayFixture;
  let database: Database;
  let prefix: string;
  let app: Express;
  const apiKey = 'pk-gateway-test';

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-gateway', ({ database: db, broker: b }) => ({
      bodyLimit: '64kb',
      readiness: { mongo: () => db.ping(), rabbitmq: () => b.isConnected() },
    }));
    ({ database, prefix, app } = fixture);
    await seedPortal(database.repositories, { portalId: 77, apiKey });
    await database.repositories.stores.upsert({ portalId: 77, appId: null }, { id: 'web', label: 'Web shop' });
  });

  afterAll(() => fixture.close());

  /** Takes the next message the mapper would get. */
  async function nextBatch(): Promise<SyncBatchMessage> {
    const connection = await amqplib.connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      const message = await channel.get(namesOf(prefix, 'mapper.sync-batches').main, { noAck: true });
      if (!message) throw new Error('no message on the mapper queue');
      expect(message.properties.deliveryMode).toBe(2); // persistent
      return JSON.parse(message.content.toString());
    } finally {
      await connection.close();
    }
  }

  it('when a v1 batch is valid, then it answers 204 after one persistent message holds the whole batch', async () => {
    const messages = [aV1Contact({ integratorObjectId: 'c1' }), aV1Contact({ integratorObjectId: 'c2', changeOccurredTimestamp: undefined })];
    await request(app).put(`/extensions/ecomm/v1/sync-messages/CONTACT?hapikey=${apiKey}`).send(messages).expect(204);
    const batch = await nextBatch();
    expect(batch).toMatchObject({ tenant: { portalId: 77, appId: null }, storeId: 'default', objectType: 'CONTACT', source: 'v1' });
    expect(batch.messages).toEqual([
      { externalObjectId: 'c1', action: 'UPSERT', changedAt: messages[0].changeOccurredTimestamp, properties: messages[0].propertyNameToValues },
      { externalObjectId: 'c2', action: 'UPSERT', changedAt: null, properties: messages[1].propertyNameToValues },
    ]);
  });

  it('when a v2 submission names a known store, then changedAt strings become numbers and associations are kept', async () => {
    const submission = aV2Submission(
      'LINE_ITEM',
      [aV2Message({ externalObjectId: 'l1', changedAt: '1700000000123', associations: { DEAL: ['d1'], PRODUCT: ['p1'] } })],
      'web',
    );
    await request(app).put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`).send(submission).expect(204);
    const batch = await nextBatch();
    expect(batch).toMatchObject({ storeId: 'web', objectType: 'LINE_ITEM', source: 'v2' });
    expect(batch.messages[0]).toMatchObject({ changedAt: 1700000000123, associations: { DEAL: ['d1'], PRODUCT: ['p1'] } });
  });

  it('when a v2 submission holds no messages, then it answers 204 and nothing is queued; one with nulls is queued without them', async () => {
    const put = (body: object) => request(app).put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`).send(body);
    await put({ storeId: 'web', objectType: 'DEAL', messages: [] }).expect(204);
    await expect(nextBatch()).rejects.toThrow('no message on the mapper queue');
    await put({ storeId: 'nowhere', objectType: 'DEAL', messages: [] }).expect(400);
    const nulls = { externalObjectId: 'd9', action: 'UPSERT', changedAt: 1700000000123.9, properties: null, associations: { CONTACT: null } };
    await put({ storeId: 'web', objectType: 'DEAL', messages: [nulls] }).expect(204);
    expect((await nextBatch()).messages).toEqual([{ externalObjectId: 'd9', action: 'UPSERT', changedAt: 1700000000123, properties: {} }]);
  });

  it('when v1 timestamps come as a numeric string and as an ISO date-time, then the batch carries them as epoch ms', async () => {
    const messages = [
      aV1Contact({ integratorObjectId: 's1', changeOccurredTimestamp: '1700000000456' }),
      aV1Contact({ integratorObjectId: 's2', changeOccurredTimestamp: '2023-11-14T22:13:20.789Z' }),
    ];
    await request(app).put(`/extensions/ecomm/v1/sync-messages/CONTACT?hapikey=${apiKey}`).send(messages).expect(204);
    const batch = await nextBatch();
    expect(batch.messages.map((message) => message.changedAt)).toEqual([1_700_000_000_456, 1_700_000_000_789]);
  });

  it('when an ISO date-time is before 1970, then the answer is 400 naming the field', async () => {
    const response = await request(app)
      .put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`)
      .send(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'old', changedAt: '1969-12-31T23:59:59Z' })], 'web'))
      .expect(400);
    expect(response.body.message).toBe('body/messages/0/changedAt must be a time from 1970 on; got "1969-12-31T23:59:59Z"');
  });

  it.each(['Bearer not-a-token-we-issued', 'Bearer pat-revoked-or-garbage'])(
    'when a real but unknown bearer token (%s) comes beside a valid hapikey, then it is refused, not ignored',
    async (authorization) => {
      const response = await request(app)
        .put(`/extensions/ecomm/v1/sync-messages/DEAL?hapikey=${apiKey}`)
        .set('authorization', authorization)
        .send([aV1Contact()])
        .expect(401);
      expect(response.body.message).toMatch(/Invalid bearer token/);
    },
  );

  it("when the portal's CRM waits, then its CRM health says why, until when and with the last answer; without a wait it says ok", async () => {
    const health = () => request(app).get(`/extensions/ecomm/v2/sync/crm-health?hapikey=${apiKey}`).expect(200);
    expect((await health()).body).toEqual({
      portalId: 77,
      state: 'ok',
      message: 'the CRM takes changes',
      since: null,
      until: null,
      lastAnswer: null,
      tries: 0,
      parkedChanges: 0,
    });

    const until = Date.now() + 60_000;
    await database.repositories.crmWaits.set(77, {
      reason: 'rate-limited',
      since: until - 70_000,
      until,
      tries: 2,
      lastAnswer: '429 You have reached your ten secondly limit.',
    });
    try {
      const { body } = await health();
      expect(body).toMatchObject({ state: 'rate-limited', until, tries: 2, lastAnswer: '429 You have reached your ten secondly limit.' });
      expect(body.message).toBe(`rate limited until ${new Date(until).toISOString()}; last answer: 429 You have reached your ten secondly limit.`);
    } finally {
      await database.repositories.crmWaits.clear({
        portalId: 77,
        wait: { reason: 'rate-limited', since: until - 70_000, until, tries: 2, lastAnswer: '' },
        stamp: null,
      });
    }
  });

  it('accepts a valid hapikey that comes with a malformed Authorization header', async () => {
    await request(app)
      .put(`/extensions/ecomm/v1/sync-messages/DEAL?hapikey=${apiKey}`)
      .set('authorization', 'Bearer undefined')
      .send([aV1Contact()])
      .expect(204);
    await nextBatch();
  });

  it('when a property value is over 64 KB, then the answer is 400 naming the property, in v1 and v2', async () => {
    const wide = await fixture.gateway({ bodyLimit: '4mb' });
    const value = `${'1'.repeat(65_536)}x`;
    const v1Answer = await request(wide)
      .put(`/extensions/ecomm/v1/sync-messages/CONTACT?hapikey=${apiKey}`)
      .send([aV1Contact({ propertyNameToValues: { note: value } })])
      .expect(400);
    expect(v1Answer.body.message).toMatch(/propertyNameToValues\/note must be a string of at most 65536 characters/);
    const v2Answer = await request(wide)
      .put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`)
      .send(aV2Submission('CONTACT', [aV2Message({ properties: { price: value } })], 'web'))
      .expect(400);
    expect(v2Answer.body.message).toMatch(/properties\/price must be a string of at most 65536 characters/);
    // The longest value allowed is accepted.
    await request(wide)
      .put(`/extensions/ecomm/v1/sync-messages/CONTACT?hapikey=${apiKey}`)
      .send([aV1Contact({ propertyNameToValues: { note: value.slice(1) } })])
      .expect(204);
    await nextBatch();
  });

  const v1 = (path = '/extensions/ecomm/v1/sync-messages/CONTACT', key: string | null = apiKey) =>
    request(app).put(key === null ? path : `${path}?hapikey=${key}`);

  it.each([
    ['no credential', 401, () => v1(undefined, null).send([aV1Contact()]), /Missing credential/],
    ['a wrong hapikey', 401, () => v1(undefined, 'nope').send([aV1Contact()]), /Invalid hapikey/],
    [
      'an unknown object type',
      400,
      () => v1('/extensions/ecomm/v1/sync-messages/ORDER').send([aV1Contact()]),
      /must be one of CONTACT, DEAL, PRODUCT, LINE_ITEM/,
    ],
    ['an empty batch', 400, () => v1().send([]), /1 to 200 sync messages, got 0/],
    ['201 messages', 400, () => v1().send(Array.from({ length: 201 }, () => aV1Contact())), /got 201/],
    [
      'an id over 100 characters',
      400,
      () => v1().send([aV1Contact({ integratorObjectId: 'x'.repeat(101) })]),
      /integratorObjectId must be an ASCII string of 1 to 100/,
    ],
    ['a non-ASCII id', 400, () => v1().send([aV1Contact({ integratorObjectId: 'naïve' })]), /ASCII/],
    [
      'a property name over 256 characters',
      400,
      () => v1().send([aV1Contact({ propertyNameToValues: { ['n'.repeat(257)]: 'x' } })]),
      /propertyNameToValues.*256/,
    ],
    [
      'a change time of 1,000 characters',
      400,
      () => v1().send([aV1Contact({ changeOccurredTimestamp: `2024-01-01T${'1'.repeat(1_000)}` as never })]),
      /changeOccurredTimestamp must be epoch milliseconds/,
    ],
    ['an unknown action', 400, () => v1().send([aV1Contact({ action: 'MERGE' as never })]), /action must be one of UPSERT, DELETE/],
    ['malformed JSON', 400, () => v1().set('content-type', 'application/json').send('[{"integratorObjectId":'), /not valid JSON/],
    ['a body that is not JSON', 415, () => v1().set('content-type', 'text/csv').send('a,b'), /Content-Type must be application\/json/],
    [
      'a body over the size limit',
      413,
      () => v1().send(Array.from({ length: 200 }, () => aV1Contact({ propertyNameToValues: { note: 'x'.repeat(400) } }))),
      /larger than 64kb/,
    ],
    [
      'an unknown store',
      400,
      () =>
        request(app)
          .put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`)
          .send(aV2Submission('CONTACT', [aV2Message()], 'nowhere')),
      /Unknown store "nowhere"/,
    ],
    ['an unknown path', 404, () => request(app).get(`/extensions/ecomm/v1/nothing-here?hapikey=${apiKey}`), /No endpoint GET/],
    ['a limit over 200', 400, () => request(app).get(`/extensions/ecomm/v1/sync-errors?hapikey=${apiKey}&limit=500`), /limit must be an integer from 1 to 200/],
    [
      'a status of an object never sent',
      404,
      () => request(app).get(`/extensions/ecomm/v2/sync/status/web/CONTACT/ghost?hapikey=${apiKey}`),
      /No CONTACT "ghost" has been received/,
    ],
  ])('when the request has %s, then it answers %i with the error body', async (_name, status, send, message) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status: 'error', message: expect.stringMatching(message), requestId: expect.stringMatching(/^[a-z0-9]{32}$/) });
  });

  it('answers readiness with the state of its dependencies', async () => {
    await request(app).get('/healthz').expect(200, { status: 'ok' });
    await request(app).get('/readyz').expect(200, { status: 'ready', failing: [] });
  });
});
