/**
 * The observability figure (issue 15): ingest through the gateway with metrics and tracing on
 * (spans exported over OTLP to a local receiver) against the same with both off, two stacks side
 * by side in the same run, measured in alternating rounds so that drift on the machine hits both.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BATCH, submission } from './load';
import { PATH_COST_ENV, startStack } from './options';
import { middleBy, round } from './stats';

export interface IngestMeasure {
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ObservabilityFigure {
  /** Median over the rounds of (messages/s with both on ÷ with both off, measured back to back). */
  ratio: number;
  /** Median messages/s with both on ÷ the median with both off (drift between rounds weighs in). */
  ratioOfMedians: number;
  on: IngestMeasure[];
  off: IngestMeasure[];
  /** OTLP export requests the receiver got from the gateway (spans really went out). */
  otlpExports: number;
}

/** Pairs of rounds (on and off back to back, alternating which goes first); odd, for a median. */
const ROUNDS = 7;
const median = (values: number[]) => middleBy(values, (value) => value);

/** Answers every OTLP/HTTP export with 200 and counts them, as a collector would. */
async function startOtlpReceiver(): Promise<{ url: string; exports: () => number; close: () => void }> {
  let exports = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/traces') exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports: () => exports, close: () => server.close() };
}

export async function benchObservability(measure: (url: string, bodies: string[]) => Promise<IngestMeasure>): Promise<ObservabilityFigure> {
  const receiver = await startOtlpReceiver();
  const common = { LOG_LEVEL: 'warn', ...PATH_COST_ENV };
  const stacks = {
    off: await startStack({ apps: ['crm', 'gateway'], env: { ...common, METRICS_ENABLED: 'false', TRACING_ENABLED: 'false' } }),
    on: await startStack({
      apps: ['crm', 'gateway'],
      env: { ...common, METRICS_ENABLED: 'true', TRACING_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    }),
  };
  try {
    const urls = {
      off: `${stacks.off.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${(await stacks.off.createPortal()).apiKey}`,
      on: `${stacks.on.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${(await stacks.on.createPortal()).apiKey}`,
    };
    const bodies = Array.from({ length: 20 }, (_, b) =>
      JSON.stringify(
        submission('CONTACT', b * BATCH, BATCH, (n) => ({ properties: { email: `observed-${n}@example.com`, firstname: `Name ${n}`, lastname: 'Bench' } })),
      ),
    );
    const results: Record<'on' | 'off', IngestMeasure[]> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first: a machine that slows down during a round hits both alike.
      for (const which of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) results[which].push(await measure(urls[which], bodies));
    }
    const rate = (which: 'on' | 'off') => median(results[which].map((result) => result.messagesPerSecond));
    // Each round's pair ran back to back, so its ratio is what a slower or busier machine moves least.
    const pairRatios = results.on.map((on, i) => on.messagesPerSecond / results.off[i].messagesPerSecond);
    return {
      ratio: round(median(pairRatios), 3),
      ratioOfMedians: round(rate('on') / rate('off'), 3),
      on: results.on,
      off: results.off,
      otlpExports: receiver.exports(),
    };
  } finally {
    await stacks.on.stop();
    await stacks.off.stop();
    receiver.close();
  }
}

export const observabilityRow = (figure: ObservabilityFigure, requests: number): string => {
  const rates = (results: IngestMeasure[]) => results.map((result) => result.messagesPerSecond).join(', ');
  return `| Ingest with metrics and tracing on (OTLP export) ÷ off, messages/s (${requests} × ${BATCH}, ${ROUNDS} rounds each) | ${rates(figure.on)} | ${rates(figure.off)} (both off) | ${figure.ratio} (median of the rounds' ratios; ratio of medians ${figure.ratioOfMedians}) | ≥ 0.95 |`;
};
