import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CrmBudgetPaused, UNLIMITED_PERMIT, type CrmBudget, type CrmPermit } from '@ecomm-sync/domain';
import { CrmPartialFailure, CrmRequestError, CrmUnavailableError } from './crm-errors';
import { HttpCrmClient } from './http-crm-client';
import { scriptedCrm } from './scripted-crm-fixture';

/** A budget that lets everything through (or refuses as told; or hands out `permits` first) and records what it was told. */
function recordingBudget(refuse?: CrmBudgetPaused, permits: CrmPermit[] = []) {
  const calls: (['take', string] | ['observe', number, Record<string, string | undefined>])[] = [];
  const budget: CrmBudget = {
    take: async (kind) => {
      calls.push(['take', kind]);
      if (refuse) throw refuse;
      return permits.shift() ?? UNLIMITED_PERMIT;
    },
    observe: (status, headers) => {
      calls.push(['observe', status, headers]);
    },
  };
  return { budget, calls };
}

const tenSecondly = {
  status: 'error',
  message: 'You have reached your ten secondly limit.',
  errorType: 'RATE_LIMIT',
  correlationId: 'c-1',
  policyName: 'TEN_SECONDLY_ROLLING',
};
const daily = { status: 'error', message: 'You have reached your daily limit.', errorType: 'RATE_LIMIT', correlationId: 'c-2', policyName: 'DAILY' };
const ok = { status: 200, body: { results: [{ id: '7', properties: { email: 'a@example.com' } }] } };

describe('HttpCrmClient when the CRM limits, fails or is away', () => {
  let crm: Awaited<ReturnType<typeof scriptedCrm>> | undefined;
  afterEach(async () => {
    await crm?.close();
    crm = undefined;
  });

  it('when a permit comes too late to send on (the process was paused past its send-by time), then the client takes another and sends once', async () => {
    crm = await scriptedCrm([ok]);
    const late: CrmPermit = { sendBy: 0, usable: () => false };
    const { budget, calls } = recordingBudget(undefined, [late, late]);
    await expect(crm.client({ budget }).batchRead('CONTACT', [7], [])).resolves.toHaveLength(1);
    expect(calls.filter(([call]) => call === 'take')).toHaveLength(3);
    expect(crm.seen).toHaveLength(1);
  });

  it('when every permit comes too late and the request may wait no longer, then the client throws rate-limited and sends nothing', async () => {
    crm = await scriptedCrm([ok]);
    const late: CrmPermit = { sendBy: 0, usable: () => false };
    const { budget } = recordingBudget(
      undefined,
      Array.from({ length: 1_000_000 }, () => late),
    );
    await expect(crm.client({ budget, maxWaitMs: 20 }).batchRead('CONTACT', [7], [])).rejects.toMatchObject({
      name: 'CrmUnavailableError',
      reason: 'rate-limited',
    });
    expect(crm.seen).toHaveLength(0);
  });

  it('when the CRM answers 423 (record locked), then the client waits 2 s at least before it tries again: within a shorter wait, the work waits instead', async () => {
    crm = await scriptedCrm([{ status: 423, body: { status: 'error', message: 'Record is locked', category: 'LOCKED' } }, ok]);
    await expect(crm.client({ maxWaitMs: 1_500 }).batchRead('CONTACT', [7], [])).rejects.toMatchObject({
      name: 'CrmUnavailableError',
      status: 423,
      reason: 'unreachable',
      retriable: true,
    });
    expect(crm.seen).toHaveLength(1);
  });

  it('when the CRM answers a redirect, then the client does not follow it (the token would go along) and the request is refused', async () => {
    crm = await scriptedCrm([{ status: 307, headers: { location: 'http://127.0.0.1:1/elsewhere' }, body: {} }, ok]);
    const error = await crm
      .client()
      .batchRead('CONTACT', [7], [])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CrmRequestError', status: 307, retriable: false });
    expect(crm.seen).toHaveLength(1);
  });

  it('when the CRM cannot be reached, then the reason names no host or address', async () => {
    const client = new HttpCrmClient({ baseUrl: 'http://127.0.0.1:1', token: 'token-of-nobody', maxWaitMs: 0 });
    const error = await client.batchRead('CONTACT', [7], []).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'unreachable', lastAnswer: 'no answer: the connection was refused' });
    expect(JSON.stringify({ message: (error as Error).message, lastAnswer: (error as { lastAnswer: string }).lastAnswer })).not.toMatch(/127\.0\.0\.1/);
  });

  it('when the CRM answers 477 (the account is migrating) with Retry-After 0, then the client sends again and returns the answer', async () => {
    crm = await scriptedCrm([{ status: 477, headers: { 'retry-after': '0' }, body: { status: 'error', message: 'Migration in progress' } }, ok]);
    await expect(crm.client().batchRead('CONTACT', [7], ['email'])).resolves.toEqual([{ id: 7, properties: { email: 'a@example.com' } }]);
    expect(crm.seen).toHaveLength(2);
  });

  it('when the CRM answers 429 with Retry-After 0, then the client sends again and returns the answer', async () => {
    crm = await scriptedCrm([{ status: 429, headers: { 'retry-after': '0' }, body: tenSecondly }, ok]);
    const objects = await crm.client().batchRead('CONTACT', [7], ['email']);
    expect(objects).toEqual([{ id: 7, properties: { email: 'a@example.com' } }]);
    expect(crm.seen).toHaveLength(2);
  });

  it('when Retry-After is longer than the client may wait, then it throws CrmUnavailableError at once with when to try again', async () => {
    crm = await scriptedCrm([{ status: 429, headers: { 'retry-after': '60' }, body: tenSecondly }]);
    const before = Date.now();
    const error = await crm
      .client({ maxWaitMs: 1_000 })
      .batchRead('CONTACT', [7], [])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmUnavailableError);
    expect(error).toBeInstanceOf(CrmRequestError);
    expect(error).toMatchObject({ reason: 'rate-limited', status: 429, retriable: true, lastAnswer: '429: You have reached your ten secondly limit.' });
    expect((error as CrmUnavailableError).until).toBeGreaterThanOrEqual(before + 60_000);
    expect(crm.seen).toHaveLength(1);
  });

  it('when the CRM answers a DAILY 429 and no budget knows the reset, then the client throws daily-cap without a time', async () => {
    crm = await scriptedCrm([{ status: 429, body: daily }]);
    await expect(crm.client().batchRead('CONTACT', [7], [])).rejects.toMatchObject({
      name: 'CrmUnavailableError',
      reason: 'daily-cap',
      until: null,
      lastAnswer: '429: You have reached your daily limit.',
    });
    expect(crm.seen).toHaveLength(1);
  });

  it('when the CRM answers 503 for longer than the client may wait, then it retries, then throws unreachable', async () => {
    crm = await scriptedCrm([{ status: 503, body: { message: 'CRM away' } }]);
    await expect(crm.client({ maxWaitMs: 400 }).listProperties('CONTACT')).rejects.toMatchObject({
      name: 'CrmUnavailableError',
      reason: 'unreachable',
      status: 503,
      until: null,
      lastAnswer: '503: CRM away',
    });
    expect(crm.seen.length).toBeGreaterThanOrEqual(2);
  });

  it('when the CRM answers 5xx and then comes back, then the client returns the answer', async () => {
    crm = await scriptedCrm([{ status: 502 }, { status: 500 }, ok]);
    await expect(crm.client().batchRead('CONTACT', [7], [])).resolves.toHaveLength(1);
    expect(crm.seen).toHaveLength(3);
  });

  it('when the CRM drops the connection, then the client throws unreachable with no answer', async () => {
    crm = await scriptedCrm(['drop']);
    await expect(crm.client({ maxWaitMs: 200 }).listProperties('CONTACT')).rejects.toMatchObject({
      reason: 'unreachable',
      status: 0,
      lastAnswer: expect.stringMatching(/^no answer: /),
    });
  });

  it('when the CRM does not answer within the timeout, then the client throws unreachable', async () => {
    crm = await scriptedCrm(['hang']);
    await expect(crm.client({ timeoutMs: 100, maxWaitMs: 150 }).listProperties('CONTACT')).rejects.toMatchObject({
      reason: 'unreachable',
      lastAnswer: 'no answer: timed out',
    });
  });

  it('when the CRM refuses the request with a 400, then the client throws a CrmRequestError at once', async () => {
    crm = await scriptedCrm([{ status: 400, body: { message: 'Property values were not valid', category: 'VALIDATION_ERROR' } }]);
    const error = await crm
      .client()
      .batchRead('CONTACT', [7], [])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmRequestError);
    expect(error).not.toBeInstanceOf(CrmUnavailableError);
    expect(error).toMatchObject({ status: 400, category: 'VALIDATION_ERROR', retriable: false });
    expect(crm.seen).toHaveLength(1);
  });

  it('when a budget is given, then each request takes a permit of its kind first and reports the answer with lower-cased headers', async () => {
    crm = await scriptedCrm([{ status: 200, headers: { 'X-HubSpot-RateLimit-Remaining': '99', 'X-HubSpot-RateLimit-Max': '100' }, body: { results: [] } }]);
    const { budget, calls } = recordingBudget();
    const client = crm.client({ budget });
    await client.batchRead('CONTACT', [7], []);
    await client.batchUpsert('CONTACT', 'email', [{ id: 'a@example.com', properties: {} }]);
    expect(calls.map((call) => call.slice(0, 2))).toEqual([
      ['take', 'request'],
      ['observe', 200],
      ['take', 'request'],
      ['observe', 200],
    ]);
    expect(calls[1][2]).toMatchObject({ 'x-hubspot-ratelimit-remaining': '99', 'x-hubspot-ratelimit-max': '100' });
  });

  it('when the CRM answers 429 many times in a row and the budget lets the client wait, then it keeps trying without a fixed count', async () => {
    const limited = { status: 429, body: tenSecondly };
    crm = await scriptedCrm([limited, limited, limited, limited, limited, limited, limited, ok]);
    const { budget, calls } = recordingBudget();
    await expect(crm.client({ budget }).batchRead('CONTACT', [7], [])).resolves.toHaveLength(1);
    expect(crm.seen).toHaveLength(8);
    expect(calls.filter(([name, status]) => name === 'observe' && status === 429)).toHaveLength(7);
  });

  it('when the budget is paused for the day, then the client sends nothing and throws daily-cap with the reset time', async () => {
    crm = await scriptedCrm([ok]);
    const reset = Date.parse('2030-01-02T05:00:00Z');
    const { budget } = recordingBudget(new CrmBudgetPaused(reset, 'daily-cap'));
    await expect(crm.client({ budget }).batchRead('CONTACT', [7], [])).rejects.toMatchObject({
      name: 'CrmUnavailableError',
      reason: 'daily-cap',
      until: reset,
      retriable: true,
    });
    expect(crm.seen).toHaveLength(0);
  });
});

describe('HttpCrmClient batch writes', () => {
  let crm: Awaited<ReturnType<typeof scriptedCrm>> | undefined;
  afterEach(async () => {
    await crm?.close();
    crm = undefined;
  });
  const inputs = [
    { id: 'k-0', properties: { email: 'a@example.com' } },
    { id: 'k-1', properties: { email: 'not an e-mail' } },
    { id: 'k-2', properties: { email: 'c@example.com' } },
  ];

  it('when trace ids are on, then each create, update and upsert input carries its index as objectWriteTraceId', async () => {
    // The vendor's answers: 200 to an upsert and an update, 201 to a create (the SDK refuses any other success).
    crm = await scriptedCrm([
      { status: 200, body: { results: [] } },
      { status: 201, body: { results: [] } },
      { status: 200, body: { results: [] } },
    ]);
    const client = crm.client({ objectWriteTraceIds: true });
    await client.batchUpsert('CONTACT', 'sync_key', inputs);
    await client.batchCreate('CONTACT', [{ properties: {} }]);
    await client.batchUpdate('CONTACT', [
      { id: 7, properties: {} },
      { id: 8, properties: {} },
    ]);
    expect((crm.seen[0].body as { inputs: unknown[] }).inputs).toEqual(
      inputs.map((input, index) => ({ ...input, idProperty: 'sync_key', objectWriteTraceId: String(index) })),
    );
    expect(crm.seen[1].body).toEqual({ inputs: [{ properties: {}, objectWriteTraceId: '0' }] });
    expect(crm.seen[2].body).toEqual({
      inputs: [
        { id: '7', properties: {}, objectWriteTraceId: '0' },
        { id: '8', properties: {}, objectWriteTraceId: '1' },
      ],
    });
  });

  it('when a write clears a property (null), then the request sends it as the empty string, which the hosted CRM clears on', async () => {
    crm = await scriptedCrm([
      { status: 201, body: { results: [] } },
      { status: 200, body: { results: [] } },
      { status: 200, body: { results: [] } },
    ]);
    const client = crm.client({ objectWriteTraceIds: false });
    await client.batchCreate('CONTACT', [{ properties: { email: 'a@example.com', firstname: null } }]);
    await client.batchUpdate('CONTACT', [{ id: 7, properties: { firstname: null, lastname: 'Kim' } }]);
    await client.batchUpsert('PRODUCT', 'sync_key', [{ id: 'p-1', properties: { price: null } }]);
    expect(crm.seen.map((request) => request.body)).toEqual([
      { inputs: [{ properties: { email: 'a@example.com', firstname: '' } }] },
      { inputs: [{ id: '7', properties: { firstname: '', lastname: 'Kim' } }] },
      { inputs: [{ id: 'p-1', idProperty: 'sync_key', properties: { price: '' } }] },
    ]);
  });

  it('when trace ids are not switched off (the default), then each input carries its index as objectWriteTraceId', async () => {
    crm = await scriptedCrm([{ status: 201, body: { results: [] } }]);
    await crm.client().batchCreate('CONTACT', [{ properties: { a: '1' } }, { properties: { a: '2' } }]);
    expect(crm.seen[0].body).toEqual({
      inputs: [
        { properties: { a: '1' }, objectWriteTraceId: '0' },
        { properties: { a: '2' }, objectWriteTraceId: '1' },
      ],
    });
  });

  it('when trace ids are switched off, then inputs are sent without them', async () => {
    crm = await scriptedCrm([{ status: 201, body: { results: [] } }]);
    await crm.client({ objectWriteTraceIds: false }).batchCreate('CONTACT', [{ properties: { a: '1' } }]);
    expect(crm.seen[0].body).toEqual({ inputs: [{ properties: { a: '1' } }] });
  });

  it('when the CRM answers 207, then the client throws CrmPartialFailure with the written objects and the refused inputs', async () => {
    const written = [
      { id: '10', properties: { sync_key: 'k-0' } },
      { id: '12', properties: { sync_key: 'k-2' } },
    ];
    const errors = [{ status: 'error', category: 'VALIDATION_ERROR', message: 'Property values were not valid', context: { objectWriteTraceId: ['1'] } }];
    crm = await scriptedCrm([{ status: 207, body: { status: 'COMPLETE', results: written, errors, numErrors: 1 } }]);
    const error = await crm
      .client({ objectWriteTraceIds: true })
      .batchUpsert('CONTACT', 'sync_key', inputs)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmPartialFailure);
    expect(error).toMatchObject({
      status: 207,
      retriable: false,
      results: [
        { id: 10, properties: { sync_key: 'k-0' } },
        { id: 12, properties: { sync_key: 'k-2' } },
      ],
      failures: [{ index: 1, message: 'Property values were not valid', category: 'VALIDATION_ERROR' }],
    });
  });

  it('when the CRM answers an association batch 207 naming refused pairs, then the client throws a CrmRequestError with its reason, not retriable', async () => {
    const errors = [
      { status: 'error', category: 'VALIDATION_ERROR', message: 'No contact with id 9', context: { toObjectId: ['9'] } },
      { status: 'error', category: 'VALIDATION_ERROR', message: 'No contact with id 10', context: { toObjectId: ['10'] } },
    ];
    crm = await scriptedCrm([{ status: 207, body: { status: 'COMPLETE', results: [], errors, numErrors: 2, correlationId: 'c-207' } }]);
    const error = await crm
      .client()
      .batchAssociate('DEAL', 'CONTACT', [
        { fromId: 1, toId: 9 },
        { fromId: 1, toId: 10 },
        { fromId: 1, toId: 11 },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmRequestError);
    expect(error).toMatchObject({ status: 207, retriable: false, correlationId: 'c-207' });
    expect((error as Error).message).toBe('CRM association batch deals → contacts refused 2 of 3 pairs (207): No contact with id 9');
  });

  it('when the CRM answers an association batch 200 with errors, then the client throws them too; without errors it resolves', async () => {
    const errors = [{ status: 'error', category: 'OBJECT_NOT_FOUND', message: 'Object not found' }];
    crm = await scriptedCrm([
      { status: 200, body: { status: 'COMPLETE', results: [], errors, numErrors: 1 } },
      { status: 200, body: { status: 'COMPLETE', results: [] } },
    ]);
    const pairs = [{ fromId: 1, toId: 2 }];
    await expect(crm.client().batchAssociate('LINE_ITEM', 'DEAL', pairs)).rejects.toMatchObject({
      name: 'CrmRequestError',
      status: 200,
      category: 'OBJECT_NOT_FOUND',
      message: 'CRM association batch line_items → deals refused 1 of 1 pairs (200): Object not found',
    });
    await expect(crm.client().batchAssociate('LINE_ITEM', 'DEAL', pairs)).resolves.toBeUndefined();
  });

  it.each([
    ['201 and no errors', { status: 201, body: { status: 'COMPLETE', results: [] } }],
    ['204 and no body', { status: 204, body: undefined }],
  ])('when the CRM answers an association batch with a success the SDK does not list (%s), then the client resolves', async (_what, answer) => {
    crm = await scriptedCrm([answer]);
    await expect(crm.client().batchAssociate('DEAL', 'CONTACT', [{ fromId: 1, toId: 2 }])).resolves.toBeUndefined();
  });

  it('when a 207 names the refused input by id rather than trace id, then the failure still says which input', async () => {
    const errors = [{ status: 'error', category: 'OBJECT_NOT_FOUND', message: 'Object not found', context: { ids: ['22'] } }];
    crm = await scriptedCrm([{ status: 207, body: { results: [{ id: '21', properties: {} }], errors } }]);
    const error = await crm
      .client()
      .batchUpdate('DEAL', [
        { id: 21, properties: {} },
        { id: 22, properties: {} },
      ])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CrmPartialFailure', failures: [{ index: 1, message: 'Object not found' }] });
  });

  /**
   * A CRM that answers each upsert with its inputs as objects (id = 1000 + trace id), counting the
   * requests in flight. The first chunk's answer waits until `expected` requests have come (or
   * 300 ms, for a client that sends one at a time): the answers come back out of order.
   */
  async function echoingCrm(expected: number, errorAtTraceId?: number, { refuseFirst = false } = {}) {
    let inFlight = 0;
    let mostInFlight = 0;
    let requests = 0;
    let answerFirst = () => undefined as void;
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        inFlight++;
        requests++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        const inputs = (JSON.parse(raw) as { inputs: { id: string; objectWriteTraceId: string }[] }).inputs;
        const refused = inputs.filter((input) => Number(input.objectWriteTraceId) === errorAtTraceId);
        const results = inputs
          .filter((input) => !refused.includes(input))
          .map((input) => ({ id: String(1000 + Number(input.objectWriteTraceId)), properties: { k: input.id } }));
        const errors = refused.map((input) => ({
          status: 'error',
          category: 'VALIDATION_ERROR',
          message: 'no',
          context: { objectWriteTraceId: [input.objectWriteTraceId] },
        }));
        const answer = () => {
          inFlight--;
          res.writeHead(errors.length > 0 ? 207 : 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: 'COMPLETE', results, ...(errors.length > 0 ? { errors, numErrors: errors.length } : {}) }));
        };
        if (refuseFirst && inputs[0].objectWriteTraceId === '0') {
          inFlight--;
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: 'error', category: 'VALIDATION_ERROR', message: 'refused whole' }));
          return;
        }
        if (refuseFirst) setTimeout(answer, 100);
        else if (inputs[0].objectWriteTraceId === '0') {
          const timer = setTimeout(() => answerFirst(), 300);
          answerFirst = () => {
            clearTimeout(timer);
            answerFirst = () => undefined;
            answer();
          };
        } else setImmediate(answer);
        if (requests === expected) answerFirst();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      client: (chunksAtOnce?: number) => new HttpCrmClient({ baseUrl, token: 't', chunksAtOnce }),
      stats: () => ({ requests, mostInFlight }),
      close: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `k-${i}`, properties: { email: `${i}@example.com` } }));

  it("when a call holds more inputs than one request takes, then its chunks of 100 go side by side, at most chunksAtOnce, and the results come back in the chunks' order", async () => {
    const echo = await echoingCrm(8);
    try {
      const results = await echo.client(3).batchUpsert('CONTACT', 'sync_key', many(750));
      // The first chunk was out while the seven others came: never more than three at once.
      expect(echo.stats().requests).toBe(8);
      expect(echo.stats().mostInFlight).toBeGreaterThanOrEqual(2);
      expect(echo.stats().mostInFlight).toBeLessThanOrEqual(3);
      expect(results.map((result) => result.id)).toEqual(Array.from({ length: 750 }, (_, i) => 1000 + i));
    } finally {
      await echo.close();
    }
  });

  it('when chunksAtOnce is 1, then the chunks go one after another', async () => {
    const echo = await echoingCrm(3);
    try {
      await echo.client(1).batchUpsert('CONTACT', 'sync_key', many(250));
      expect(echo.stats()).toEqual({ requests: 3, mostInFlight: 1 });
    } finally {
      await echo.close();
    }
  });

  it('when a later chunk answers 207 while the first is still out, then the failure names the input by its place in the whole call', async () => {
    const echo = await echoingCrm(3, 230);
    try {
      const error = await echo
        .client()
        .batchUpsert('CONTACT', 'sync_key', many(300))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'CrmPartialFailure', failures: [{ index: 230, message: 'no' }] });
      expect((error as CrmPartialFailure).results).toHaveLength(299);
    } finally {
      await echo.close();
    }
  });

  it('when a chunk is refused whole, then no further chunk starts, and the refusal is thrown once the chunk already out has answered', async () => {
    const echo = await echoingCrm(10, undefined, { refuseFirst: true });
    try {
      const error = await echo
        .client(2)
        .batchUpsert('CONTACT', 'sync_key', many(1000))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'CrmRequestError', status: 400 });
      expect(echo.stats().requests).toBeGreaterThanOrEqual(2);
      expect(echo.stats().requests).toBeLessThan(10);
    } finally {
      await echo.close();
    }
  });

  it('when one record comes twice within what one request would take, then its second input goes in the next request, after the first', async () => {
    const echo = await echoingCrm(2);
    try {
      const twice = many(5).map((input, i) => (i === 3 ? { ...input, id: 'k-1' } : input));
      await echo.client(4).batchUpsert('CONTACT', 'sync_key', twice);
      // The hosted CRM refuses a batch naming one record twice (400 "Duplicate IDs found in batch input").
      expect(echo.stats()).toEqual({ requests: 2, mostInFlight: 1 });
    } finally {
      await echo.close();
    }
  });

  it('when one record comes twice in a call, then its chunks go one at a time', async () => {
    const echo = await echoingCrm(3);
    try {
      const twice = many(300).map((input, i) => (i === 250 ? { ...input, id: 'k-0' } : input));
      await echo.client(4).batchUpsert('CONTACT', 'sync_key', twice);
      expect(echo.stats()).toEqual({ requests: 3, mostInFlight: 1 });
    } finally {
      await echo.close();
    }
  });
});
