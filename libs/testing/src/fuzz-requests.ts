import fc from 'fast-check';

/** A request body as a fuzzer sends it: raw bytes with a content type (and sometimes an encoding). */
export interface FuzzBody {
  contentType: string;
  contentEncoding?: string;
  body: string;
}

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', '__proto__', 'constructor', '$where', '%ZZ', '\u0000', 'x'.repeat(5000)),
);

/**
 * Bodies around what an endpoint expects: any JSON value, objects whose keys are the endpoint's
 * fields (or prototype names) with values of any kind, broken JSON, forms, other content types,
 * and encodings that do not match the bytes.
 */
export function fuzzBodies(fields: readonly string[] = []): fc.Arbitrary<FuzzBody> {
  const key = fc.oneof(fc.constantFrom(...fields, '__proto__', 'constructor', 'toString', 'portalId'), fc.string({ maxLength: 20 }));
  const shaped: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(key, tie('value'), { maxKeys: 6 })),
  })).value;
  const json = (value: unknown): FuzzBody => ({ contentType: 'application/json', body: JSON.stringify(value) ?? 'null' });
  return fc.oneof(
    shaped.map(json),
    fc.array(shaped, { maxLength: 3 }).map(json),
    fc.jsonValue().map(json),
    fc.string({ maxLength: 200 }).map((body) => ({ contentType: 'application/json', body })),
    fc.string({ maxLength: 200 }).map((body) => ({ contentType: 'application/x-www-form-urlencoded', body })),
    fc
      .tuple(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/json; charset=utf-16', ''), fc.string({ maxLength: 100 }))
      .map(([contentType, body]) => ({ contentType, body })),
    fc
      .tuple(fc.constantFrom('gzip', 'deflate', 'br', 'zstd', 'identity, gzip'), shaped)
      .map(([contentEncoding, value]) => ({ ...json(value), contentEncoding })),
  );
}

/** A path segment as a fuzzer puts it in a URL: plain, odd, or broken percent-encoding. */
export const fuzzSegment: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
  fc.constantFrom('CONTACT', 'DEAL', 'default', '1', '0', '-1', '%ZZ', '%', '..', 'constructor', '__proto__', '9'.repeat(30)),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
);

/** Bodies per endpoint: a bounded run in the test suite, FUZZ_RUNS for a long one (npm run fuzz). */
export const fuzzRuns = (bounded: number): number => Number(process.env.FUZZ_RUNS ?? bounded);

/** Requests in flight per endpoint: FUZZ_CONCURRENCY, else 8 (the server overlaps its database and broker waits). */
export const fuzzConcurrency = (): number => Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 8));

/** One write endpoint as a fuzzer sees it. `:seg` in the path takes a fuzzed segment. */
export interface FuzzTarget {
  method: 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** The fields its body has: fuzzed objects are keyed by them. */
  fields?: string[];
  headers?: Record<string, string>;
  /** Appended to the URL (a credential in the query, for example). */
  query?: string;
  /** Statuses of 500 and above that this endpoint may answer (502 where a CRM it needs is away). */
  allowed5xx?: number[];
  /** Checks the body of a 4xx answer (the error model); throws when it is wrong. */
  checkError?: (body: unknown) => void;
}

export interface FuzzOptions {
  /** Bodies to send (rounded up to whole batches of `concurrency`). */
  bodies: number;
  concurrency?: number;
  segment?: fc.Arbitrary<string>;
  /** A request without an answer within this time is a hang. */
  timeoutMs?: number;
}

/**
 * Sends fuzzed bodies and path segments to one endpoint of a listening server, `concurrency` at a
 * time over keep-alive connections (fetch), and fails on a 5xx that is not allowed, a 4xx outside
 * the error model, or a request without an answer (a hang). Each fast-check run is one batch sent
 * together, so a failure still comes with its seed and a shrunk batch.
 */
export async function assertEndpointSurvivesFuzz(baseUrl: string, target: FuzzTarget, options: FuzzOptions): Promise<void> {
  const concurrency = options.concurrency ?? fuzzConcurrency();
  const segment = options.segment ?? fuzzSegment;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const segmentCount = (target.path.match(/:seg/g) ?? []).length;
  const one = fc.tuple(fc.array(segment, { minLength: segmentCount, maxLength: segmentCount }), fuzzBodies(target.fields));

  const send = async ([segments, { contentType, contentEncoding, body }]: [string[], FuzzBody]): Promise<void> => {
    let n = 0;
    const path = target.path.replace(/:seg/g, () => segments[n++]);
    const url = `${baseUrl}${path}${target.query ? `${path.includes('?') ? '&' : '?'}${target.query}` : ''}`;
    const headers: Record<string, string> = { ...target.headers, 'content-type': contentType };
    if (contentEncoding) headers['content-encoding'] = contentEncoding;
    const what = () => `${target.method} ${path} (${contentType}${contentEncoding ? `, ${contentEncoding}` : ''}) with ${JSON.stringify(body).slice(0, 300)}`;
    let response: Response;
    try {
      response = await fetch(url, { method: target.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new Error(`${what()}: no answer within ${timeoutMs} ms (${(error as Error).message})`);
    }
    const text = await response.text();
    if (response.status >= 500 && !target.allowed5xx?.includes(response.status))
      throw new Error(`${what()} answered ${response.status}: ${text.slice(0, 300)}`);
    if (response.status >= 400 && target.checkError) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${what()} answered ${response.status} with a body that is not JSON: ${text.slice(0, 300)}`);
      }
      target.checkError(parsed);
    }
  };

  await fc.assert(
    fc.asyncProperty(fc.array(one, { minLength: concurrency, maxLength: concurrency }), async (batch) => {
      await Promise.all(batch.map(send));
    }),
    { numRuns: Math.ceil(options.bodies / concurrency) },
  );
}
