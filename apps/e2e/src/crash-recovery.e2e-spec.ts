import mongoose, { type Connection } from 'mongoose';
import { aV2Message, aV2Submission, testInfrastructure, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';

const OBJECTS = 3_000;
const BATCH = 200;

describe('crash recovery: services killed mid-stream lose nothing and apply nothing twice', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let crmDb: Connection;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { AMQP_RETRY_DELAY_MS: '200', LOG_LEVEL: 'warn' } });
    portal = await stack.createPortal();
    crmDb = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: `${stack.name}_crm` }).asPromise();
  });

  afterAll(async () => {
    await crmDb?.close();
    await stack?.stop();
  });

  const batches = Array.from({ length: OBJECTS / BATCH }, (_, b) =>
    aV2Submission(
      'CONTACT',
      Array.from({ length: BATCH }, (_, i) => {
        const n = b * BATCH + i;
        return aV2Message({
          externalObjectId: `crash-${n}`,
          changedAt: 1_700_000_000_000 + n,
          properties: { email: `crash-${n}@example.com`, firstname: `Name ${n}` },
        });
      }),
    ),
  );

  const appliedCount = async () =>
    crmDb
      .useDb(`${stack.name}_sync`)
      .collection('object_syncs')
      .countDocuments({ appliedRev: { $gt: 0 }, crmId: { $ne: null } });

  it('when the mapper and then the applier are SIGKILLed during a stream of 3,000 messages, then every message is applied exactly once in effect', async () => {
    const client = gatewayClient(stack, portal);
    const send = (from: number, to: number) => Promise.all(batches.slice(from, to).map((batch) => client.putV2(batch)));

    await send(0, 5);
    await waitFor(async () => (await appliedCount()) > 0, { timeoutMs: 30_000, message: 'the first objects to be applied' });
    await stack.stopApp('mapper', 'SIGKILL');
    const appliedWhenMapperDied = await appliedCount();
    expect(appliedWhenMapperDied).toBeLessThan(OBJECTS);

    await send(5, 10); // accepted while the mapper is down: the broker holds them
    await stack.startApp('mapper');
    await waitFor(async () => (await appliedCount()) > appliedWhenMapperDied, { timeoutMs: 30_000, message: 'progress after the mapper restarted' });
    await stack.stopApp('applier', 'SIGKILL');
    // Accepted and mapped while the applier is down: whatever it had in flight, these wait for it.
    await send(10, 15);
    expect(await appliedCount()).toBeLessThan(OBJECTS);
    await stack.startApp('applier');

    await waitFor(async () => (await appliedCount()) === OBJECTS, { timeoutMs: 120_000, intervalMs: 250, message: `all ${OBJECTS} objects to be applied` });

    const contacts = await crmDb.collection('crm_objects').find({ portalId: portal.portalId, objectType: 'contacts', archived: false }).toArray();
    expect(contacts).toHaveLength(OBJECTS); // none missing, none twice
    const byEmail = new Map(contacts.map((contact) => [contact.properties.email, contact.properties.firstname]));
    for (let n = 0; n < OBJECTS; n++) expect(byEmail.get(`crash-${n}@example.com`)).toBe(`Name ${n}`);
    // Every message kept as received, once: a batch's document holds its messages (decision 0055).
    const logged = await crmDb.useDb(`${stack.name}_sync`).collection('raw_messages').find({ portalId: portal.portalId }).toArray();
    const kept = logged.flatMap((batch) => (batch.messages as { externalObjectId: string }[]).map((message) => message.externalObjectId));
    expect(kept.sort()).toEqual(Array.from({ length: OBJECTS }, (_, n) => `crash-${n}`).sort());
    const openErrors = await crmDb.useDb(`${stack.name}_sync`).collection('sync_errors').countDocuments({ status: 'OPEN' });
    expect(openErrors).toBe(0);
  });
});
