import type { CrmExchange } from './crm-exchange';
import { CrmRequestLog } from './crm-request-log';

const anExchange = (n: number): CrmExchange => ({
  at: new Date(0),
  portalId: 1,
  account: 'builtin:1',
  baseUrl: 'http://crm',
  method: 'POST',
  path: `/crm/v3/objects/contacts/batch/update#${n}`,
  attempt: 1,
  objects: [],
  status: 200,
  failed: false,
  durationMs: 1,
  correlationId: null,
  error: null,
  request: { headers: {}, body: null, bytes: 0, truncated: false },
  answer: { headers: {}, body: null, bytes: 0, truncated: false },
});

/** A store whose writes wait until it is opened, so that a test sees what the log holds meanwhile. */
function heldStore() {
  const written: CrmExchange[][] = [];
  const releases: (() => void)[] = [];
  let held = true;
  return {
    written,
    open: () => {
      held = false;
      releases.splice(0).forEach((release) => release());
    },
    write: (exchanges: CrmExchange[]) =>
      new Promise<void>((resolve) => {
        written.push(exchanges);
        if (held) releases.push(resolve);
        else resolve();
      }),
  };
}

describe('the CRM request log buffer', () => {
  const logs: CrmRequestLog[] = [];
  const logWith = (options: ConstructorParameters<typeof CrmRequestLog>[0]) => {
    const log = new CrmRequestLog({ flushIntervalMs: 3_600_000, ...options });
    logs.push(log);
    return log;
  };
  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close();
  });

  it('when fewer exchanges than a batch are recorded, then nothing is written until a flush, then all in one batch', async () => {
    const written: CrmExchange[][] = [];
    const log = logWith({ write: async (batch) => void written.push(batch), batchSize: 10 });
    for (let n = 0; n < 3; n++) log.record(anExchange(n));
    expect(written).toEqual([]);
    await log.flush();
    expect(written.map((batch) => batch.length)).toEqual([3]);
  });

  it('when a batch fills, then it is written at once without waiting for the interval', async () => {
    const store = heldStore();
    const log = logWith({ write: store.write, batchSize: 2 });
    log.record(anExchange(1));
    log.record(anExchange(2));
    expect(store.written.map((batch) => batch.length)).toEqual([2]);
    store.open();
    await log.flush();
  });

  it('when the buffer is full while the store is slow, then more exchanges are dropped and record still returns at once', async () => {
    const store = heldStore();
    const log = logWith({ write: store.write, batchSize: 2, maxBuffered: 3 });
    for (let n = 0; n < 10; n++) log.record(anExchange(n));
    // Two went to the held write, three are held, five were dropped.
    expect(log.buffered).toBe(3);
    store.open();
    await log.flush();
    expect(store.written.flat().map((exchange) => exchange.path.split('#')[1])).toEqual(['0', '1', '2', '3', '4']);
  });

  it('when the store refuses a batch, then recording goes on, the failure is reported, and later batches are written', async () => {
    const failures: number[] = [];
    let refuse = true;
    const written: CrmExchange[] = [];
    const log = logWith({
      write: async (batch) => {
        if (refuse) throw new Error('database away');
        written.push(...batch);
      },
      batchSize: 100,
      onWriteFailed: (_error, count) => failures.push(count),
    });
    log.record(anExchange(1));
    await log.flush();
    refuse = false;
    log.record(anExchange(2));
    await log.flush();
    expect(failures).toEqual([1]);
    expect(written.map((exchange) => exchange.path.split('#')[1])).toEqual(['2']);
  });

  it('when the log is closed, then everything it holds is written', async () => {
    const written: CrmExchange[] = [];
    const log = new CrmRequestLog({ write: async (batch) => void written.push(...batch), batchSize: 4, flushIntervalMs: 3_600_000 });
    for (let n = 0; n < 10; n++) log.record(anExchange(n));
    await log.close();
    expect(written).toHaveLength(10);
    expect(log.buffered).toBe(0);
  });
});
