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
});
