import { redactedMessage, loggedBaseUrl, redactText, REDACTED, SECRET_NAME_WORDS } from './crm-exchange-redaction';
import { parseAnswer } from './crm-json';

const TOKEN = 'pat-na1-11111111-2222-3333-4444-555555555555';

describe('the CRM request log redacts secrets', () => {
  it.each([
    ['a bearer authorization header', { authorization: `Bearer ${TOKEN}` }, undefined, [TOKEN]],
    ['a proxy authorization header', { 'Proxy-Authorization': 'Basic dXNlcjpwYXNz' }, undefined, ['dXNlcjpwYXNz']],
    ['a cookie the CRM sets', { 'set-cookie': '__cf_bm=abcdefgh; path=/' }, undefined, ['__cf_bm=abcdefgh']],
    ['an access token field at depth', {}, { data: { nested: [{ access_token: 'at-123456789' }] } }, ['at-123456789']],
    [
      'a refresh token and client secret of a token request',
      {},
      { grant_type: 'refresh_token', refresh_token: 'rt-abcdefghij', client_secret: 'cs-abcdefghij' },
      ['rt-abcdefghij', 'cs-abcdefghij'],
    ],
    [
      'a hapikey and an api key field',
      {},
      { hapikey: 'hk-1234567890', apiKey: 'ak-1234567890', 'x-api-key': 'xk-1234567890' },
      ['hk-1234567890', 'ak-1234567890', 'xk-1234567890'],
    ],
    [
      'a form-encoded body with a client secret',
      {},
      `grant_type=refresh_token&client_id=c1&client_secret=cs-zyxwvuts&refresh_token=rt-zyxwvuts`,
      ['cs-zyxwvuts', 'rt-zyxwvuts'],
    ],
    ['the connection token echoed in an error message', {}, { message: `token ${TOKEN} is expired` }, [TOKEN]],
    ['a bearer credential inside a string value', {}, { detail: 'sent Authorization: Bearer abc.def.ghi-jkl' }, ['abc.def.ghi-jkl']],
    // JSON text writes a tab or a line break as an escape (`\t`), not as white space.
    ['a bearer credential after a tab, in JSON text', {}, '{"detail":"Bearer\\tabc.def.ghi-jkl"}', ['abc.def.ghi-jkl']],
    ['a basic credential after a line break, in an object', {}, { detail: 'Basic\r\ndXNlcjpwYXNzd29yZA==' }, ['dXNlcjpwYXNzd29yZA==']],
    ['a form body as URLSearchParams', {}, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'rt-urlsearch' }), ['rt-urlsearch']],
    [
      'a form body whose secrets the parameter pattern does not name',
      {},
      new URLSearchParams({ password: 'pw-urlsearch', x_token: 'xt-urlsearch' }),
      ['pw-urlsearch', 'xt-urlsearch'],
    ],
    ['a bearer credential after an escaped vertical tab, in JSON text', {}, '{"detail":"Bearer\\u000babc.def.ghi-jkl"}', ['abc.def.ghi-jkl']],
  ])('when a request carries %s, then the kept message holds none of its secrets', (_case, headers, body, secrets) => {
    const kept = JSON.stringify(redactedMessage(headers as Record<string, string>, body, [TOKEN]));
    for (const secret of secrets) expect(kept).not.toContain(secret);
    expect(kept).toContain(REDACTED);
  });

  it.each([
    ['a property value', { properties: { email: 'ada@example.com', ip__ecomm_bridge__sync_key: 'abc123' } }, ['ada@example.com', 'abc123']],
    ['the vendor’s correlation id and category', { correlationId: 'c0ffee-1', category: 'VALIDATION_ERROR' }, ['c0ffee-1', 'VALIDATION_ERROR']],
    ['an idProperty naming the unique property', { inputs: [{ id: 'k', idProperty: 'ip__ecomm_bridge__sync_key' }] }, ['ip__ecomm_bridge__sync_key']],
  ])('when a body holds %s, then it is kept as it was', (_case, body, kept) => {
    const message = redactedMessage({}, body, [TOKEN]);
    for (const value of kept) expect(message.body).toContain(value);
    expect(message.body).not.toContain(REDACTED);
  });

  it.each([
    ['a hapikey in the query', '/crm/v3/objects/contacts?hapikey=hk-secret-1', '/crm/v3/objects/contacts?hapikey=[redacted]'],
    ['an access token among other parameters', '/x?limit=10&access_token=at-1&after=5', '/x?limit=10&access_token=[redacted]&after=5'],
    ['no secret', '/crm/v3/objects/deals/batch/upsert', '/crm/v3/objects/deals/batch/upsert'],
  ])('when a path carries %s, then it is kept as %s', (_case, path, kept) => {
    expect(redactText(path)).toBe(kept);
  });

  it('when a base URL carries a user, password or query, then the connection is named without them', () => {
    expect(loggedBaseUrl('https://user:pw@api.example.com/crm/?hapikey=1#x')).toBe('https://api.example.com/crm');
  });
});

describe('the CRM request log keeps a form body’s parameters', () => {
  it('when a form body is logged, then its parameters are kept as sent, only secret-named values redacted', () => {
    const kept = redactedMessage({}, new URLSearchParams({ grant_type: 'refresh_token', client_id: 'c 1', client_secret: 'cs-1234567890' }), []);
    expect(kept.body).toBe('grant_type=refresh_token&client_id=c+1&client_secret=[redacted]'); // as on the wire: a space is +
  });
});

describe('the CRM request log keeps JSON text as it came when it names no secret', () => {
  it.each([
    ['a secret field', '{"inputs": [{"id": "k"}], "refresh_token": "rt-abcdefghij"}', 'rt-abcdefghij'],
    ['a secret field named with an escape', '{"inputs": [], "\\u0074oken": "tk-abcdefghij"}', 'tk-abcdefghij'],
    ['a field named code', '{"code": "cd-abcdefghij", "state": "s"}', 'cd-abcdefghij'],
  ])('when JSON text holds %s, then its value is redacted', (_case, text, secret) => {
    const message = redactedMessage({}, text, []);
    expect(message.body).not.toContain(secret);
    expect(message.body).toContain(REDACTED);
  });

  it.each([
    ['a credential written with an escaped slash', '{"message": "bad header Basic dXNlcjpw\\/YXNz"}', [], 'YXNz'],
    ['the connection token written with an escaped slash', '{"message": "expired: pat\\/na1-abcdefgh"}', ['pat/na1-abcdefgh'], 'abcdefgh'],
  ])('when JSON text holds %s, then it is redacted as its parsed body would be', (_case, text, secrets, secret) => {
    const message = redactedMessage({}, parseAnswer(text), secrets);
    expect(message.body).not.toContain(secret);
    expect(message.body).toContain(REDACTED);
  });

  // A word added to the secret names must reach the look that lets text through as it came.
  it.each(SECRET_NAME_WORDS.map((word) => [word, word.replace('[-_]?', '_').toUpperCase()]))(
    'when JSON text names a field with the secret word %s (as %s), then its value is redacted',
    (_word, name) => {
      expect(redactedMessage({}, `{"inputs": [], "X_${name}_2": "s3cr3t-value-1"}`, []).body).not.toContain('s3cr3t-value-1');
    },
  );

  it('when JSON text names no secret, then it is kept byte for byte, spacing included', () => {
    const text = '{ "inputs": [ {"id": "k", "properties": {"amount": "1.50"}} ] }';
    expect(redactedMessage({}, text, []).body).toBe(text);
  });

  it('when an answer was parsed from text, then the log keeps that text, not the answer encoded again', () => {
    const text = '{"results": [ {"id": "1", "properties": {"email": "ada@example.com"}} ], "status": "COMPLETE"}';
    expect(redactedMessage({}, parseAnswer(text), []).body).toBe(text);
    const withSecret = '{"status": "error", "message": "bad", "access_token": "at-123456789"}';
    expect(redactedMessage({}, parseAnswer(withSecret), []).body).toBe('{"status":"error","message":"bad","access_token":"[redacted]"}');
  });

  it('when an answer parsed from text holds the connection token in a value, then the token is redacted', () => {
    expect(redactedMessage({}, parseAnswer(`{"message": "expired: ${TOKEN}"}`), [TOKEN]).body).toBe('{"message": "expired: [redacted]"}');
  });
});

describe('the CRM request log bounds bodies', () => {
  it.each([
    ['a body under the bound', 'a'.repeat(100), 1024, false, 100],
    ['a body of exactly the bound', 'a'.repeat(1024), 1024, false, 1024],
    ['a body over the bound', 'a'.repeat(5000), 1024, true, 5000],
  ])('when it is %s, then it is kept whole or cut at the bound and marked', (_case, text, maxBytes, truncated, bytes) => {
    const message = redactedMessage({}, text, [], maxBytes);
    expect(message).toMatchObject({ truncated, bytes });
    expect(Buffer.byteLength(message.body!)).toBeLessThanOrEqual(maxBytes);
  });

  it('when a body is cut inside a character of several bytes, then the character is left out, never broken', () => {
    const message = redactedMessage({}, 'é'.repeat(1000), [], 101);
    expect(message.truncated).toBe(true);
    expect(message.body).toBe('é'.repeat(50));
  });

  it.each([
    ['right at the bound', 'a'.repeat(99)],
    ['one character before it', 'a'.repeat(98)],
    ['after characters of two bytes', 'é'.repeat(48) + 'ab'],
  ])('when a character of four bytes is cut %s, then it is left out and the rest kept', (_case, before) => {
    const message = redactedMessage({}, `${before}😀${'z'.repeat(200)}`, [], 100);
    expect(message.truncated).toBe(true);
    expect(message.body).toBe(before);
  });

  it('when a body carries a parameter secret and no other "=", then the parameter is still redacted', () => {
    expect(redactedMessage({}, { detail: 'retry with access_token=at-12345678' }, []).body).toBe('{"detail":"retry with access_token=[redacted]"}');
  });

  it('when there is no body, then none is kept', () => {
    expect(redactedMessage({ 'content-type': 'application/json' }, undefined, [])).toEqual({
      headers: { 'content-type': 'application/json' },
      body: null,
      bytes: 0,
      truncated: false,
    });
  });

  it('when a secret sits past the bound, then the cut body holds no part of it either', () => {
    const message = redactedMessage({}, { padding: 'x'.repeat(90), message: `token ${TOKEN}` }, [TOKEN], 120);
    expect(message.body).not.toContain(TOKEN.slice(0, 12));
  });
});
