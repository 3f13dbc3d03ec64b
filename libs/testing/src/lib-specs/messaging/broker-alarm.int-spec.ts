import { deferred, recordingLogger, startPrivateRabbitMq, uniqueName, waitFor, type LogEntry, type PrivateRabbitMq } from '../../support';
import { Broker, purgeAndDeleteTopology } from '@ecomm-sync/messaging';

// The node of its own takes a few seconds to start.
jest.setTimeout(120_000);

/** RabbitMQ's memory alarm blocks every connection that publishes (a node of its own: the shared one is never alarmed). */
describe('Broker while RabbitMQ blocks publishing (a memory alarm)', () => {
  let node: PrivateRabbitMq;
  let prefix: string;
  let logs: LogEntry[];
  let broker: Broker | undefined;

  beforeAll(async () => {
    node = await startPrivateRabbitMq();
  });

  afterAll(async () => {
    await node?.stop();
  });

  beforeEach(() => {
    prefix = uniqueName('test-alarm');
  });

  afterEach(async () => {
    await node.ctl('set_vm_memory_high_watermark', '0.4');
    await broker?.close(1_000);
    await purgeAndDeleteTopology(node.url, prefix);
  });

  it('when a handler fails while publishing is blocked, then its retry copy waits for the alarm to end and the acks of other messages go on', async () => {
    const recording = recordingLogger('info');
    logs = recording.entries;
    broker = await Broker.connect({
      url: node.url,
      prefix,
      prefetch: 2,
      retryDelayMs: 100,
      maxAttempts: 3,
      publishTimeoutMs: 60_000,
      logger: recording.logger,
    });
    const started: number[] = [];
    const handled: number[] = [];
    const release = { 1: deferred(), 2: deferred() };
    let failed = false;
    await broker.consume<{ n: number }>('mapper.sync-batches', async ({ body }) => {
      started.push(body.n);
      if (body.n === 1 || body.n === 2) await release[body.n].promise;
      if (body.n === 1 && !failed) {
        failed = true;
        throw new Error('transient');
      }
      handled.push(body.n);
    });
    for (const n of [1, 2, 3]) await broker.publish('sync.batch.CONTACT', { n });
    await waitFor(() => started.includes(1) && started.includes(2), { message: 'messages 1 and 2 to be handled (3 waits: prefetch 2)' });

    await node.ctl('set_vm_memory_high_watermark', '0');
    const blockedPublish = broker.publish('sync.batch.CONTACT', { n: 4 }); // a publish meets the alarm: its connection is blocked
    await waitFor(() => logs.some((entry) => entry.message === 'broker blocked publishing' && entry.role === 'publishing'), {
      message: 'publishing to be blocked',
    });
    release[1].resolve();
    await waitFor(() => logs.some((entry) => entry.message === 'message will be retried'), { message: 'message 1 to fail' });
    release[2].resolve();

    // Message 2's ack reaches the broker while the alarm lasts: the broker hands over message 3.
    await waitFor(() => handled.includes(3), { message: 'message 3 to be delivered after the ack of message 2' });
    expect(handled).not.toContain(1);

    await node.ctl('set_vm_memory_high_watermark', '0.4');
    await blockedPublish;
    await waitFor(() => [1, 2, 3, 4].every((n) => handled.includes(n)), { message: 'every message to be handled once the alarm ended' });
  });
});
