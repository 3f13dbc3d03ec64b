import http from 'node:http';
import amqplib from 'amqplib';
import type { ImportEventMessage } from '@ecomm-sync/contracts';
import { connectDatabase, SecretBox, sealedFor, type Database } from '@ecomm-sync/data-access';
import { createLogger } from '@ecomm-sync/runtime';
import { Broker, namesOf, purgeAndDeleteTopology } from '@ecomm-sync/messaging';
import { startWebhookReceiver, testInfrastructure, uniqueName, type WebhookAnswer, type WebhookReceiver } from '@ecomm-sync/testing';
import { DispatchWebhookUseCase, type DispatchOptions } from './use-cases/dispatch-webhook.use-case';

const { mongoUrl, amqpUrl } = testInfrastructure();
const SECRET = 'secret-of-the-application';

/** The webhook-dispatcher in-process against the real MongoDB-wire server, RabbitMQ and an HTTP receiver. */
describe('dispatching signed webhooks', () => {
  let database: Database;
  let broker: Broker;
  let prefix: string;
  let receiver: WebhookReceiver;
  let answers: WebhookAnswer[] = [];
  const box = new SecretBox('test-secrets-key-0123456789');

  beforeAll(async () => {
    prefix = uniqueName('test-webhooks');
    database = await connectDatabase(mongoUrl, prefix.replace(/-/g, '_'));
    broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger: createLogger('test', 'error') });
    await database.repositories.accounts.createApplication({
      appId: 'app-1',
      developerId: 1,
      name: 'A',
      clientId: 'client-1',
      clientSecret: SECRET,
      sealedSecret: box.seal(SECRET, sealedFor.appClientSecret('app-1')),
    });
    receiver = await startWebhookReceiver(
      () => SECRET,
      () => answers.shift() ?? { status: 500 },
    );
  });

  afterAll(async () => {
    await receiver.close();
    await broker.close(100);
    await purgeAndDeleteTopology(amqpUrl, prefix);
    await database.connection.dropDatabase();
    await database.close();
  });

  const dispatcher = (options: Partial<DispatchOptions> = {}) =>
    new DispatchWebhookUseCase(database.repositories, box, broker, createLogger('test', 'error'), {
      timeoutMs: 300,
      maxAttempts: 3,
      backoffBaseMs: 20,
      allowPrivateTargets: true,
      ...options,
    });

  /** The outcome the import-coordinator would get. */
  async function outcome(): Promise<Extract<ImportEventMessage, { kind: 'webhook-completed' }>> {
    const connection = await amqplib.connect(amqpUrl);
    try {
      const message = await (await connection.createChannel()).get(namesOf(prefix, 'import-coordinator.events').main, { noAck: true });
      if (!message) throw new Error('no outcome was published');
      return JSON.parse(message.content.toString());
    } finally {
      await connection.close();
    }
  }

  let n = 0;
  const send = async (options: Partial<DispatchOptions> = {}, url = `${receiver.url}/hook`, appId = 'app-1') => {
    const requestId = `request-${++n}`;
    await dispatcher(options).dispatch({ requestId, appId, url, body: JSON.stringify({ n }) });
    return { requestId, event: await outcome(), attempts: await database.repositories.imports.attemptsOf(requestId) };
  };

  it('retries 5xx with backoff, signs every attempt, records each, and reports the JSON answer', async () => {
    const before = receiver.received.length;
    answers = [{ status: 503 }, { status: 502 }, { status: 200, json: { importCounts: [] } }];
    const { event, attempts } = await send();
    expect(event).toEqual({ kind: 'webhook-completed', requestId: expect.any(String), ok: true, status: 200, body: { importCounts: [] } });
    expect(attempts.map((attempt) => attempt.status)).toEqual([503, 502, 200]);
    expect(receiver.received.slice(before).map((request) => request.verified)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it.each([
    ['a 400', 1, [{ status: 400 }], /answered 400/],
    ['a 2xx without JSON', 1, [{ status: 200 }], /answered 200 without a JSON body/],
    ['5xx every time', 3, [{ status: 500 }, { status: 500 }, { status: 500 }], /answered 500\) after 3 attempt/],
    ['no answer at all', 3, ['no-answer', 'no-answer', 'no-answer'], /no whole answer within 300 ms/],
  ] as [string, number, WebhookAnswer[], RegExp][])('fails on %s after %i attempt(s), with the reason', async (_name, count, given, reason) => {
    answers = [...given];
    const { event, attempts } = await send();
    expect(event).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
    expect(attempts).toHaveLength(count);
  });

  /** A receiver of its own, answering as `answer` does, for the answers startWebhookReceiver cannot give. */
  async function withServer(answer: http.RequestListener, run: (url: string) => Promise<void>) {
    const server = http.createServer(answer);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('when a receiver answers with a redirect, then it is not followed nor tried again, and the reason says where it leads', async () => {
    await withServer(
      (_request, response) => response.writeHead(301, { location: 'https://receiver.example/hook' }).end(),
      async (url) => {
        const { event, attempts } = await send({}, url);

        expect(event).toMatchObject({
          ok: false,
          reason: expect.stringMatching(/answered 301, a redirect to https:\/\/receiver\.example\/…hook: redirects are not followed/),
        });
        expect(attempts).toHaveLength(1);
      },
    );
  });

  it('when a receiver answers one byte at a time, then each attempt ends at the timeout, whole, and the reason says so', async () => {
    let ticks = 0;
    const closed: boolean[] = [];
    await withServer(
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        // A byte well within the idle timeout, again and again: only a deadline on the whole attempt ends it.
        const timer = setInterval(() => res.write(' ', () => ticks++), 50);
        req.socket.once('close', () => {
          clearInterval(timer);
          closed.push(true);
        });
      },
      async (url) => {
        const { event, attempts } = await send({ maxAttempts: 2 }, url);
        expect(event).toMatchObject({ ok: false, reason: expect.stringMatching(/no whole answer within 300 ms\) after 2 attempts/) });
        expect(attempts).toHaveLength(2);
      },
    );
    expect(ticks).toBeGreaterThan(0);
    expect(closed).toEqual([true, true]);
  });

  it('when a receiver answers more than the cap, then the attempt fails at the cap, is not tried again, and says why', async () => {
    let written = 0;
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const more = () => {
          // Up to 8 MB, as fast as the dispatcher reads: it must stop reading at the cap.
          while (written < 8 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
          if (written < 8 * 1024 * 1024) res.once('drain', more);
          else res.end();
        };
        more();
      },
      async (url) => {
        const { event, attempts } = await send({ timeoutMs: 5_000 }, url);
        expect(event).toMatchObject({ ok: false, reason: expect.stringMatching(/answered more than 65536 bytes/) });
        expect(attempts).toHaveLength(1);
      },
    );
  });

  it('refuses a private target unless allowed, without calling it', async () => {
    const before = receiver.received.length;
    const { event, attempts } = await send({ allowPrivateTargets: false });
    expect(event).toMatchObject({ ok: false, reason: expect.stringMatching(/127\.0\.0\.1.*\(loopback\)/) });
    expect(attempts).toEqual([]);
    expect(receiver.received.length).toBe(before);
  });

  it('when the host name resolves to another address after the check (DNS rebinding), then every attempt still goes to the checked address', async () => {
    const port = Number(new URL(receiver.url).port);
    // The "internal" server the second answer of the name points to: same port, another address.
    const internal: string[] = [];
    const inside = http.createServer((req, res) => res.end(internal.push(req.url ?? '') && '{"importCounts":[]}'));
    await new Promise<void>((resolve, reject) => inside.once('error', reject).listen(port, '127.0.0.2', resolve));
    const resolutions: string[] = [];
    const rebinding = async (host: string) => (resolutions.push(host) === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    try {
      const before = receiver.received.length;
      answers = [{ status: 503 }, { status: 503 }, { status: 200, json: { importCounts: [] } }];
      const { event, attempts } = await send({ resolve: rebinding }, `http://rebinding.test:${port}/hook`);
      expect(event).toMatchObject({ ok: true, status: 200 });
      expect(attempts.map((attempt) => attempt.status)).toEqual([503, 503, 200]);
      expect(receiver.received.slice(before).map((request) => request.headers.host)).toEqual(Array(3).fill(`rebinding.test:${port}`));
      expect(internal).toEqual([]);
      expect(resolutions).toEqual(['rebinding.test']);
    } finally {
      await new Promise((resolve) => inside.close(resolve));
    }
  });

  it('fails an application without a secret', async () => {
    const { event } = await send({}, `${receiver.url}/hook`, 'no-such-app');
    expect(event).toMatchObject({ ok: false, reason: expect.stringMatching(/no client secret/) });
  });
});
