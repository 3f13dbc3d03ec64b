import { api, ApiError } from './api';

describe('api', () => {
  const answer = (status: number, text: string) => jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(status === 204 ? null : text, { status }));
  const portal = { kind: 'portal-key' as const, secret: 'key' };

  beforeAll(() => {
    (globalThis as { window?: unknown }).window = { location: { origin: 'http://console.test' } };
  });
  afterEach(() => jest.restoreAllMocks());

  it('when the service answers JSON, then its body is the answer', async () => {
    answer(200, '{"ok":true}');
    await expect(api(portal, '/x')).resolves.toEqual({ ok: true });
  });

  it('when the service answers 204, then there is no body', async () => {
    answer(204, '');
    await expect(api(portal, '/x')).resolves.toBeUndefined();
  });

  it('when something in between answers 200 with a page that is not JSON, then it is an error that says so, not an empty answer', async () => {
    answer(200, '<html>Sign in</html>');
    const refused = api(portal, '/x');
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toThrow(/answered 200 with something that is not its JSON/);
  });

  it('when a credential was refused past the failed-login throttle (429), then it is a refusal (401) that says to sign in again', async () => {
    answer(
      429,
      JSON.stringify({
        status: 'error',
        message: 'Too many failed authentication attempts from this credential: at most 20 per 60 s; check the credential, or wait 31 s',
      }),
    );
    await expect(api(portal, '/x')).rejects.toMatchObject({ status: 401, message: expect.stringMatching(/refused too often.*Sign out and sign in/) });
  });

  it('when the service is only busy (429), then it stays a 429 to wait for', async () => {
    answer(429, JSON.stringify({ status: 'error', message: 'Too many requests: at most 100 per 10 s' }));
    await expect(api(portal, '/x')).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/^Too many requests just now/) });
  });
});
