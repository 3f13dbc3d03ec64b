import { signV1, signV2, signV3, verifyWebhook } from './webhook-signature';

const SECRET = 'yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy';

describe('webhook signatures', () => {
  it.each([
    ['GET', 'https://www.example.com/webhook_uri', '', 'eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e'],
    ['POST', 'https://www.example.com/webhook_uri', '{"example_field":"example_value"}', '9569219f8ba981ffa6f6f16aa0f48637d35d728c7e4d93d0d52efaa512af7900'],
  ])('when a request is signed with v2 (%s %s), then the signature is the vendor vector and verifies when v2 is accepted', (method, uri, body, expected) => {
    expect(signV2(SECRET, method, uri, body)).toBe(expected);
    expect(
      verifyWebhook(SECRET, { method, uri, rawBody: body, headers: { 'x-crm-signature': expected, 'x-crm-signature-version': 'v2' } }, { accept: ['v2'] }),
    ).toEqual({ ok: true });
  });

  it('when a request is signed with v1, then the signature is sha256 of secret and body and verifies only when v1 is accepted', () => {
    const body = '{"portalId":62515,"importStartedAt":1527609737137}';
    // Vectors computed once with `sha256sum` of the concatenation.
    expect(signV1(SECRET, body)).toBe('93edf61c4ad469e743196ad8012d92f299832c3d6612768c02cee69dc9ac7283');
    expect(signV1(SECRET, '')).toBe('7418bfa6cc65d7a81654375ae616e2e41e57d88cf56f6390fb3438ee5155bf13');
    const headers = { 'X-Crm-Signature': signV1(SECRET, body), 'X-Crm-Signature-Version': 'v1' };
    const v1 = { accept: ['v1'] as const };
    expect(verifyWebhook(SECRET, { method: 'POST', uri: 'https://x.example.com/i', rawBody: body, headers }, v1)).toEqual({ ok: true });
    expect(verifyWebhook(SECRET, { method: 'POST', uri: 'https://x.example.com/i', rawBody: `${body} `, headers }, v1)).toEqual({
      ok: false,
      reason: 'X-Crm-Signature (v1) does not match',
    });
    expect(verifyWebhook('another-secret', { method: 'POST', uri: 'https://x.example.com/i', rawBody: body, headers }, v1).ok).toBe(false);
    expect(verifyWebhook(SECRET, { method: 'POST', uri: 'https://x.example.com/i', rawBody: body, headers })).toEqual({
      ok: false,
      reason: 'no accepted signature (v3) on the request',
    });
  });

  it('when a request is signed with v3, then it verifies by default within the time window and is refused outside it or altered', () => {
    const uri = 'https://shop.example.com/import';
    const body = '{"a":1}';
    const at = 1_700_000_000_000;
    const signature = signV3(SECRET, 'POST', uri, body, at);
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const headers = { 'x-crm-signature-v3': signature, 'x-crm-request-timestamp': String(at) };
    expect(verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers }, { now: at + 1000 })).toEqual({ ok: true });
    expect(verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers }, { now: at + 6 * 60 * 1000 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/older/),
    });
    expect(verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers }, { now: at - 6 * 60 * 1000 })).toMatchObject({ ok: false });
    expect(verifyWebhook(SECRET, { method: 'POST', uri: `${uri}?x=1`, rawBody: body, headers }, { now: at })).toMatchObject({ ok: false });
    expect(verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers: { 'x-crm-signature-v3': signature } }, { now: at })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Timestamp/),
    });
  });

  it('when the v3 header of a request signed with v1 and v3 is dropped (a replay), then the default refuses it instead of falling back to v1', () => {
    const uri = 'https://shop.example.com/import';
    const body = '{"a":1}';
    const replayed = { 'x-crm-signature': signV1(SECRET, body), 'x-crm-signature-version': 'v1' };
    expect(verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers: replayed })).toEqual({
      ok: false,
      reason: 'no accepted signature (v3) on the request',
    });
    expect(verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers: replayed }, { accept: ['v3', 'v1'] })).toEqual({ ok: true });
    expect(
      verifyWebhook(SECRET, { method: 'POST', uri, rawBody: body, headers: { ...replayed, 'x-crm-signature-version': 'v2' } }, { accept: ['v1'] }),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/v2 is not accepted/) });
  });

  it('when a request carries no signature, then it is refused with the versions that were expected', () => {
    expect(verifyWebhook(SECRET, { method: 'POST', uri: 'https://x', rawBody: '', headers: {} })).toEqual({
      ok: false,
      reason: 'no accepted signature (v3) on the request',
    });
    expect(verifyWebhook(SECRET, { method: 'POST', uri: 'https://x', rawBody: '', headers: {} }, { accept: ['v1', 'v3'] })).toEqual({
      ok: false,
      reason: 'no signature header',
    });
  });
});
