import fc from 'fast-check';

/** A request body as a fuzzer sends it: raw bytes with a content type (and sometimes an encoding). */
export interface FuzzBody {
  contentType: string;
  contentEncoding?: string;
  body: string;
}

const scalar = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('', '__proto__', 'constructor', '$where', '%ZZ', '\u0000', 'x'.repeat(5000)));

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
    fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'application/json; charset=utf-16', ''), fc.string({ maxLength: 100 })).map(([contentType, body]) => ({ contentType, body })),
    fc.tuple(fc.constantFrom('gzip', 'deflate', 'br', 'zstd', 'identity, gzip'), shaped).map(([contentEncoding, value]) => ({ ...json(value), contentEncoding })),
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
