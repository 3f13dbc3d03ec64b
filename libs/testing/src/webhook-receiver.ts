import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@ecomm-sync/runtime';

export interface ReceivedWebhook {
  body: unknown;
  /** The signature check of `verifyWebhook` (the helper integrators use). */
  verified: { ok: true } | { ok: false; reason: string };
  headers: http.IncomingHttpHeaders;
}

export type WebhookAnswer = { status: number; json?: unknown } | 'no-answer';

export interface WebhookReceiver {
  /** Base URL; the webhook target is any path under it. */
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A real HTTP server acting as an integrator's webhook endpoint: it verifies each request's
 * signature with the application's secret and answers what `answer` says ('no-answer' holds the
 * request until the sender gives up).
 */
export async function startWebhookReceiver(
  secret: () => string,
  answer: (body: unknown, verified: ReceivedWebhook['verified']) => WebhookAnswer,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const held: http.ServerResponse[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // kept as text
      }
      const verified = verifyWebhook(secret(), { method: req.method ?? 'POST', uri: `${base}${req.url ?? ''}`, rawBody, headers: req.headers });
      received.push({ body, verified, headers: req.headers });
      const reply = answer(body, verified);
      if (reply === 'no-answer') {
        held.push(res);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    received,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
