import request from 'supertest';
import { connectDatabase, DatabaseClock, SendingPortals } from '@ecomm-sync/data-access';
import { aV2Message, aV2Submission, seedPortal, testInfrastructure } from '@ecomm-sync/testing';
import type { Express } from 'express';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

// Each portal's intake is paced (decision 0057): beyond its rate a batch waits in the gateway, and
// one that would wait longer than the longest wait is answered 429 over HTTP with Retry-After. Every
// replica shares each portal's pace through the database (decision 0057, addendum of 2026-11-28), and
// sees through it which other portals are sending (addendum of 2026-12-02).

describe('the gateway paces each portal’s intake', () => {
  let fixture: GatewayFixture;
  let app: Express;
  const keys = {
    a: 'pk-intake-a',
    b: 'pk-intake-b',
    c: 'pk-intake-c',
    d: 'pk-intake-d',
    e: 'pk-intake-e',
    f: 'pk-intake-f',
    g: 'pk-intake-g',
    h: 'pk-intake-h',
  };

  beforeAll(async () => {
    // 1 object a second after 200 at once, no wait: a second full batch within 200 s is refused.
    fixture = await startGatewayFixture('test-intake', () => ({
      intakePace: { objectsPerSecond: 1, burstObjects: 200, maxWaitMs: 0, maxHeldBytes: 1_000_000 },
    }));
    ({ app } = fixture);
    for (const [portalId, apiKey] of [
      [7101, keys.a],
      [7102, keys.b],
      [7103, keys.c],
      [7104, keys.d],
      [7105, keys.e],
      [7106, keys.f],
      [7107, keys.g],
      [7108, keys.h],
    ] as const) {
      await seedPortal(fixture.database.repositories, { portalId, apiKey });
      await fixture.database.repositories.stores.upsert({ portalId, appId: null }, { id: 'web', label: 'Web' });
    }
  });

  afterAll(() => fixture.close());

  const send = (key: string, prefix: string, count: number, via: Express = app) =>
    request(via)
      .put(`/extensions/ecomm/v2/sync/messages?hapikey=${key}`)
      .send(
        aV2Submission(
          'CONTACT',
          Array.from({ length: count }, (_, i) => aV2Message({ externalObjectId: `${prefix}-${i}` })),
          'web',
        ),
      );

  it('when a portal sends a batch beyond its pace and longest wait, then it gets 429 with Retry-After saying so, and another portal goes on', async () => {
    await send(keys.a, 'first', 200).expect(204);

    const refused = await send(keys.a, 'second', 200).expect(429);

    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({
      status: 'error',
      message: expect.stringMatching(/faster than 1 object a second .*Nothing of this batch was accepted: send it again after Retry-After seconds/),
      requestId: expect.any(String),
    });
    await send(keys.b, 'other', 200).expect(204);
  });

  it('when a portal’s batches come through two gateway replicas, then the replicas share its pace: the second refuses the batch beyond it', async () => {
    // The second replica has a database connection of its own: what they share is only what is stored.
    const own = await connectDatabase(testInfrastructure().mongoUrl, fixture.database.connection.name);
    try {
      const replica = await fixture.gateway({ repositories: own.repositories });
      await send(keys.c, 'via-first', 200).expect(204);

      const refused = await send(keys.c, 'via-second', 200, replica).expect(429);

      expect(refused.body.message).toMatch(/faster than 1 object a second/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // What the first replica took is stored once: 200 objects at 1 a second.
      const due = await own.repositories.intakePaces.find(7103);
      expect(due! - Date.now()).toBeGreaterThan(190_000);
    } finally {
      await own.close();
    }
  });

  it.each([
    ['reads the database server’s clock', 'still refuses the batch beyond the pace', 7104, 429],
    ['reads its own clock, as before', 'takes the batch beyond the pace', 7105, 204],
  ])('when the second replica’s own clock runs five minutes ahead and it %s, then it %s', async (_reads, _then, portalId, status) => {
    const key = portalId === 7104 ? keys.d : keys.e;
    const own = await connectDatabase(testInfrastructure().mongoUrl, fixture.database.connection.name);
    try {
      // The first replica reads the machine's clock, which is the server's here (one host).
      // On its own clock the second replica would find the first one's `due` long past, and take the batch.
      const ahead = new DatabaseClock(async () => (await own.connection.db!.admin().command({ isMaster: 1 })).localTime as Date, {
        local: () => Date.now() + 300_000,
      });
      await ahead.measure();
      expect(Math.abs(ahead.now() - Date.now())).toBeLessThan(1_000);
      const sharedClock = status === 429 ? ahead.now : () => Date.now() + 300_000;
      const replica = await fixture.gateway({ repositories: own.repositories, sharedClock });
      await send(key, 'via-first', 200).expect(204);

      await send(key, 'via-second', 200, replica).expect(status);
    } finally {
      await own.close();
    }
  });

  describe('while other portals send too', () => {
    // A database of their own: the portals above keep backlogs that would count as sending here.
    let own: Awaited<ReturnType<typeof connectDatabase>>;
    const [alone, flood, trickle] = [7111, 7112, 7113];

    beforeAll(async () => {
      own = await connectDatabase(testInfrastructure().mongoUrl, `${fixture.database.connection.name}-shared`);
      for (const [portalId, apiKey] of [
        [alone, keys.f],
        [flood, keys.g],
        [trickle, keys.h],
      ] as const) {
        await seedPortal(own.repositories, { portalId, apiKey });
        await own.repositories.stores.upsert({ portalId, appId: null }, { id: 'web', label: 'Web' });
      }
    });

    // Each test starts with no portal sending: a pace left by the one before would count.
    beforeEach(() => own.connection.collection('intake_paces').deleteMany({}));

    afterAll(async () => {
      await own.connection.dropDatabase();
      await own.close();
    });

    /** Two replicas on the database: 100 a second alone, 10 beside others, so 100 objects beyond the burst wait 1 s alone and 10 s (too long) beside. */
    async function replicas() {
      const intakePace = { objectsPerSecond: 100, sharedObjectsPerSecond: 10, burstObjects: 200, maxWaitMs: 2_000, maxHeldBytes: 1_000_000 };
      const sending = new SendingPortals(own.repositories.intakePaces, { clock: Date.now });
      const first = await fixture.gateway({ repositories: own.repositories, intakePace });
      const second = await fixture.gateway({ repositories: own.repositories, intakePace, sendingPortals: sending });
      return { first, second, sending };
    }

    it('when a portal sends alone and its batch goes beyond its burst, then it waits its turn at its own rate and is taken', async () => {
      const { second, sending } = await replicas();
      const burstSentAt = performance.now();
      await send(keys.f, 'burst', 200, second).expect(204);
      await sending.read();
      expect(sending.othersSending(alone)).toBe(false);

      await send(keys.f, 'beyond', 100, second).expect(204);

      // Its turn came 1 s (100 objects at 100 a second) after the burst was taken, which was after the
      // burst was sent: a lower bound whatever the machine's load. (Timed from its own request, the
      // wait reads shorter by the time between the two takes: 898 ms was seen on a loaded machine.)
      expect(performance.now() - burstSentAt).toBeGreaterThanOrEqual(990);
    });

    it('when another portal sends through another replica, then a batch beyond the burst gets 429 naming the shared pace', async () => {
      const { first, second, sending } = await replicas();
      await sending.read();
      expect(sending.othersSending(flood)).toBe(false);
      await send(keys.h, 'other', 1, first).expect(204);
      await sending.read(); // what the second replica reads once a second: the first one's take, through the database
      expect(sending.othersSending(flood)).toBe(true);
      await send(keys.g, 'burst', 200, second).expect(204);

      const next = await send(keys.g, 'beyond', 100, second).expect(429);

      expect(next.body.message).toMatch(/faster than 10 objects a second \(its pace while other portals send too\)/);
      // Its turn would come 10 s on, 8 s beyond the longest wait.
      expect(Number(next.headers['retry-after'])).toBeGreaterThanOrEqual(7);
      expect(Number(next.headers['retry-after'])).toBeLessThanOrEqual(8);
    });
  });
});
