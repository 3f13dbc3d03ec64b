import { type ImportEventMessage, TOPICS } from '@ecomm-sync/contracts';
import { SecretBox, sealedFor } from '@ecomm-sync/data-access';
import {
  asRepositories,
  FakeAccountRepository,
  FakeBroker,
  FakeImportRepository,
  type LogEntry,
  recordingLogger,
  startWebhookReceiver,
  type WebhookAnswer,
  type WebhookReceiver,
} from '@ecomm-sync/testing';
import { DispatchWebhookUseCase, type DispatchOptions } from './dispatch-webhook.use-case';

const SECRET = 'client-secret-of-the-application';
const box = new SecretBox('dispatch-webhook-spec-secrets-key');
const OPTIONS: DispatchOptions = { timeoutMs: 300, maxAttempts: 3, backoffBaseMs: 1_000, allowPrivateTargets: true };

type Completed = Extract<ImportEventMessage, { kind: 'webhook-completed' }>;

/** The receiver is a real HTTP server on the loopback (as target-policy.spec.ts does); everything else is a fake. */
describe('DispatchWebhookUseCase', () => {
  let receiver: WebhookReceiver;
  let answers: WebhookAnswer[];
  let accounts: FakeAccountRepository;
  let imports: FakeImportRepository;
  let broker: FakeBroker;
  let slept: number[];
  let n = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver(
      () => SECRET,
      () => answers.shift() ?? { status: 500 },
    );
  });

  afterAll(async () => {
    await receiver.close();
  });

  beforeEach(async () => {
    answers = [];
    accounts = new FakeAccountRepository();
    imports = new FakeImportRepository();
    broker = new FakeBroker();
    slept = [];
    await accounts.createApplication({
      appId: 'app-1',
      developerId: 1,
      name: 'App',
      clientId: 'client-1',
      clientSecret: SECRET,
      sealedSecret: box.seal(SECRET, sealedFor.appClientSecret('app-1')),
    });
    await accounts.createApplication({
      appId: 'app-old-key',
      developerId: 1,
      name: 'App sealed under a retired key',
      clientId: 'client-2',
      clientSecret: SECRET,
      sealedSecret: new SecretBox('a-key-this-service-no-longer-has').seal(SECRET, sealedFor.appClientSecret('app-old-key')),
    });
  });

  let logged: LogEntry[] = [];
  const send = async (options: Partial<DispatchOptions> = {}, url = `${receiver.url}/hook`, appId = 'app-1') => {
    const recording = recordingLogger();
    logged = recording.entries;
    const useCase = new DispatchWebhookUseCase(asRepositories({ accounts, imports }), box, broker, recording.logger, { ...OPTIONS, ...options }, async (ms) => {
      slept.push(ms);
    });
    const requestId = `request-${++n}`;
    const before = receiver.received.length;
    await useCase.dispatch({ requestId, appId, url, body: JSON.stringify({ n }) });
    return {
      outcome: broker.bodiesTo<Completed>(TOPICS.webhookCompleted),
      attempts: await imports.attemptsOf(requestId),
      received: receiver.received.slice(before),
    };
  };

  it('when the receiver answers 5xx and then 200 with JSON, then every attempt is signed and recorded, with backoff between, and the answer is reported', async () => {
    answers = [{ status: 503 }, { status: 502 }, { status: 200, json: { importCounts: [] } }];

    const { outcome, attempts, received } = await send();

    expect(outcome).toEqual([{ kind: 'webhook-completed', requestId: expect.any(String), ok: true, status: 200, body: { importCounts: [] } }]);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.error])).toEqual([
      [1, 503, 'answered 503'],
      [2, 502, 'answered 502'],
      [3, 200, null],
    ]);
    expect(received.map((request) => request.verified)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    // Exponential with jitter: half to all of 1 s, then of 2 s.
    expect(slept).toHaveLength(2);
    expect(slept[0]).toBeGreaterThanOrEqual(500);
    expect(slept[0]).toBeLessThanOrEqual(1_000);
    expect(slept[1]).toBeGreaterThanOrEqual(1_000);
    expect(slept[1]).toBeLessThanOrEqual(2_000);
  });

  it.each([
    ['no path', () => receiver.url],
    ['a scheme in capitals and a query with quotes and a space', () => `${receiver.url.replace('http', 'HTTP')}/hook?shop='main' store`],
    ['user info and a fragment', () => `${receiver.url.replace('//', '//shop:secret@')}/hook#imports`],
  ])('when the address has %s, then the v3 signature holds for the URI the receiver sees', async (_case, url) => {
    answers = [{ status: 200, json: { importCounts: [] } }];

    const { received } = await send({}, url());

    expect(received.map((request) => request.verified)).toEqual([{ ok: true }]);
  });

  it.each<[string, number, WebhookAnswer[], RegExp]>([
    ['a 400', 1, [{ status: 400 }], /answered 400\) after 1 attempt, not tried again since that answer will not change$/],
    ['a 2xx without a JSON body', 1, [{ status: 200 }], /answered 200 without a JSON body\) after 1 attempt, not tried again/],
    ['a 500, then a 404', 2, [{ status: 500 }, { status: 404 }], /answered 404\) after 2 attempts, not tried again/],
    ['5xx every time', 3, [{ status: 500 }, { status: 500 }, { status: 500 }], /answered 500\) after 3 attempts$/],
    ['408 every time', 3, [{ status: 408 }, { status: 408 }, { status: 408 }], /answered 408/],
    ['429 every time', 3, [{ status: 429 }, { status: 429 }, { status: 429 }], /answered 429/],
    ['no answer', 3, ['no-answer', 'no-answer', 'no-answer'], /no whole answer within 300 ms/],
  ])('when the receiver gives %s, then the webhook fails after %i attempt(s) with the reason', async (_case, count, given, reason) => {
    answers = [...given];

    const { outcome, attempts } = await send();

    expect(outcome).toEqual([{ kind: 'webhook-completed', requestId: expect.any(String), ok: false, reason: expect.stringMatching(reason) }]);
    expect(attempts).toHaveLength(count);
  });

  it('when the look-up of the host fails for now (EAI_AGAIN), then it counts as an attempt and the next attempt resolves and delivers', async () => {
    answers = [{ status: 200, json: { importCounts: [] } }];
    let lookups = 0;
    const resolve = async () => {
      if (++lookups === 1) throw Object.assign(new Error('getaddrinfo EAI_AGAIN hooks.shop.test'), { code: 'EAI_AGAIN' });
      return ['127.0.0.1'];
    };
    const url = `http://hooks.shop.test:${new URL(receiver.url).port}/hook`;

    const { outcome, attempts, received } = await send({ resolve }, url);

    expect(attempts.map(({ attempt, status, error }) => ({ attempt, status, error }))).toEqual([
      { attempt: 1, status: null, error: expect.stringMatching(/does not resolve now \(getaddrinfo EAI_AGAIN/) },
      { attempt: 2, status: 200, error: null },
    ]);
    expect(received).toHaveLength(1);
    expect(outcome).toEqual([expect.objectContaining({ ok: true, status: 200 })]);
    expect(lookups).toBe(2);
  });

  it('when an attempt cannot be recorded, then the answer is still reported once, and the failure is logged', async () => {
    answers = [{ status: 200, json: { importCounts: [] } }];
    jest.spyOn(imports, 'recordAttempt').mockRejectedValue(new Error('not primary'));

    const { outcome, received } = await send();

    expect(received).toHaveLength(1);
    expect(outcome).toEqual([expect.objectContaining({ ok: true, status: 200, body: { importCounts: [] } })]);
    expect(logged.find((entry) => entry.message === 'webhook attempt not recorded')).toMatchObject({ level: 'warn', attempt: 1, error: 'Error: not primary' });
  });

  it.each([
    ['the application has no client secret', {}, () => `${receiver.url}/hook`, 'app-unknown', /application app-unknown has no client secret/],
    [
      'its client secret was sealed under a key this service no longer has',
      {},
      () => `${receiver.url}/hook`,
      'app-old-key',
      /application app-old-key has no client secret to sign with that can be opened \(.+\)/,
    ],
    ['the target is private and private targets are not allowed', { allowPrivateTargets: false }, () => `${receiver.url}/hook`, 'app-1', /target was refused/],
    ['the target is not http', {}, () => 'ftp://shop.example.com/hook', 'app-1', /only http and https/],
    [
      'the host does not resolve',
      { resolve: async () => Promise.reject(new Error('ENOTFOUND')) },
      () => 'https://nowhere.example.com/hook',
      'app-1',
      /does not resolve \(ENOTFOUND\)/,
    ],
  ] as [string, Partial<DispatchOptions>, () => string, string, RegExp][])(
    'when %s, then the webhook fails at once without a request',
    async (_case, options, url, appId, reason) => {
      const { outcome, attempts, received } = await send(options, url(), appId);

      expect(outcome).toEqual([{ kind: 'webhook-completed', requestId: expect.any(String), ok: false, reason: expect.stringMatching(reason) }]);
      expect(attempts).toEqual([]);
      expect(received).toEqual([]);
    },
  );
});
