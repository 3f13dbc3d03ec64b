import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpCrmClient, type CrmClientOptions } from './http-crm-client';

export interface Seen {
  method: string;
  url: string;
  body: unknown;
}
export type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang' | 'drop';

/** A CRM on port 0 that answers from a script (then the last answer again), recording each request. */
export async function scriptedCrm(script: Answer[]) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body: raw ? JSON.parse(raw) : undefined });
      const answer = script[Math.min(seen.length - 1, script.length - 1)];
      if (answer === 'hang') return;
      if (answer === 'drop') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    seen,
    client: (options: Partial<CrmClientOptions> = {}) => new HttpCrmClient({ baseUrl, token: 't', ...options }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
