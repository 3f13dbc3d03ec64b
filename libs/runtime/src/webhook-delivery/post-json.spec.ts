import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../webhook-signature';
import { postJson } from './post-json';

interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  url: string;
}

/** A receiver on the loopback interface that answers each request with the next status given. */
async function receiver(status: number): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const options = { timeoutMs: 5_000, allowPrivateTargets: true };

describe('postJson', () => {
  it("when the caller adds headers, then they are sent, and the content type and signature stay postJson's own", async () => {
    const target = await receiver(204);
    try {
      const attempt = await postJson(target.url, '{"a":1}', {
        ...options,
        secret: 'the-destination-secret',
        headers: { 'Idempotency-Key': 'notice-1', 'Content-Type': 'text/plain', 'X-Crm-Signature-v3': 'forged' },
      });
      expect(attempt).toEqual({ ok: true, status: 204 });
      const [request] = target.received;
      expect(request.headers['idempotency-key']).toBe('notice-1');
      expect(request.headers['content-type']).toBe('application/json');
      expect(verifyWebhook('the-destination-secret', { method: 'POST', uri: target.url, rawBody: request.rawBody, headers: request.headers })).toEqual({
        ok: true,
      });
    } finally {
      await target.close();
    }
  });

  it('when the address has no path, user info and a fragment, then the signature holds for the URI the receiver sees', async () => {
    const target = await receiver(204);
    try {
      const base = target.url.replace('/hook', '');
      await postJson(`${base.replace('//', '//alerts:secret@')}#notices`, '{}', { ...options, secret: 'the-destination-secret' });
      const [request] = target.received;
      expect(
        verifyWebhook('the-destination-secret', { method: 'POST', uri: `${base}${request.url}`, rawBody: request.rawBody, headers: request.headers }),
      ).toEqual({
        ok: true,
      });
    } finally {
      await target.close();
    }
  });

  it.each([
    ['when the receiver answers 500, then the attempt failed and may be tried again', 500, false],
    ['when it answers 429, then it may be tried again', 429, false],
    ['when it answers 400, then trying again cannot help', 400, true],
  ])('%s', async (_name, status, final) => {
    const target = await receiver(status);
    try {
      expect(await postJson(target.url, '{}', options)).toEqual({ ok: false, final, status, error: `answered ${status}` });
    } finally {
      await target.close();
    }
  });

  it('when the look-up of the host fails for now (EAI_AGAIN), then the attempt failed and may be tried again', async () => {
    const resolve = async () => Promise.reject(Object.assign(new Error('getaddrinfo EAI_AGAIN hooks.shop.test'), { code: 'EAI_AGAIN' }));
    const attempt = await postJson('https://hooks.shop.test/alerts', '{}', { ...options, resolve });
    expect(attempt).toEqual({ ok: false, final: false, status: null, error: expect.stringMatching(/does not resolve now/) });
  });

  it('when the target is on a private network and those are not allowed, then nothing is sent and the refusal is final', async () => {
    const target = await receiver(204);
    try {
      const attempt = await postJson(target.url, '{}', { ...options, allowPrivateTargets: false });
      expect(attempt).toMatchObject({ ok: false, final: true, status: null });
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });
});
