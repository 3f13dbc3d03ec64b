/**
 * A pass-through HTTP proxy in front of the built-in CRM, for the CRM budget figure: the CRM counts
 * 429s but not which policy refused them, nor how long it took to answer. The stack's CRM_BASE_URL
 * points here; the target is set once the stack (and its CRM port) is known. `latencyMs` holds each
 * answer that much longer, as a hosted CRM an ocean away answers (the request still arrives at once,
 * so the CRM counts it when it was sent).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile, round } from './stats';

export interface CrmProxyStats {
  requests: number;
  /** 429s by the `policyName` of their body (TEN_SECONDLY_ROLLING, SECONDLY, DAILY). */
  limitedByPolicy: Record<string, number>;
  /** Time from the request's arrival at the proxy until the CRM's answer was complete, over all requests. */
  latencyMs: { p50: number; p99: number; max: number };
}

export async function startCrmProxy(latencyMs = 0) {
  let target: URL | null = null;
  let latencies: number[] = [];
  let limitedByPolicy: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const started = performance.now();
    if (!target) {
      res.writeHead(503).end();
      return;
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);

        if (answer.statusCode === 429) {
          let policy = 'unknown';
          try {
            policy = String((JSON.parse(body.toString('utf8')) as { policyName?: unknown }).policyName ?? 'unknown');
          } catch {
            // not JSON: counted as unknown
          }
          limitedByPolicy[policy] = (limitedByPolicy[policy] ?? 0) + 1;
        }
        const reply = () => {
          latencies.push(performance.now() - started);
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(body);
        };
        if (latencyMs > 0) setTimeout(reply, latencyMs);
        else reply();
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTarget: (url: string) => (target = new URL(url)),
    reset: () => {
      latencies = [];
      limitedByPolicy = {};
    },
    stats: (): CrmProxyStats => {
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        requests: sorted.length,
        limitedByPolicy: { ...limitedByPolicy },
        latencyMs: { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1] ?? NaN) },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
