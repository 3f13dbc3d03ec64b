/** The ingest figure: v2 submissions through the gateway against bare express + ajv on the same machine. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BATCH, put, submission } from './load';
import { benchConfig } from './config';
import { PATH_COST_ENV, SIZES, log, root, startStack } from './options';
import { cpuSeconds } from './process-stats';
import { middleBy, percentile, pool, round } from './stats';

export const CONCURRENCY = 8;

/**
 * Rounds of the baseline and the gateway, alternating, the figure being the round of the middle
 * ratio: each ratio compares neighbouring measurements, so what the machine does meanwhile weighs
 * on both sides. Measured once each (1,000 requests, under 2 s a side), three runs in a row on a
 * quiet machine read 0.64, 0.51 and 0.47.
 */
export const INGEST_ROUNDS = 3;

/**
 * Requests sent before measuring, so that both servers run optimised code: with 20, the quick
 * figure (then 150 requests) read 0.41–0.49 where 3,000 requests read 0.49–0.60 on the same machine.
 */
const WARM_UP_REQUESTS = 200;

/** Messages a second through `url`; with `serverPid`, the CPU that process spent per request too (from /proc). */
export async function measureIngest(url: string, bodies: string[], serverPid?: number) {
  await pool(WARM_UP_REQUESTS, CONCURRENCY, (i) => put(url, bodies[i % bodies.length]));
  const cpuAtStart = serverPid === undefined ? NaN : cpuSeconds(serverPid);
  const started = performance.now();
  const latencies = await pool(SIZES.ingestRequests, CONCURRENCY, (i) => put(url, bodies[i % bodies.length]));
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = serverPid === undefined ? NaN : (cpuSeconds(serverPid) - cpuAtStart) * 1000;
  latencies.sort((a, b) => a - b);
  return {
    messagesPerSecond: Math.round((SIZES.ingestRequests * BATCH) / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    ...(serverPid === undefined ? {} : { serverCpuMsPerRequest: round(cpuMs / SIZES.ingestRequests, 3) }),
  };
}

async function startBaselineServer(): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'bench', 'baseline-server.js'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => resolve(Number(/listening on (\d+)/.exec(chunk.toString())?.[1]))),
  );
  return { url: `http://127.0.0.1:${port}/extensions/ecomm/v2/sync/messages`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

type Ingest = Awaited<ReturnType<typeof measureIngest>>;

export async function benchIngest() {
  log(`ingest: ${INGEST_ROUNDS} rounds of ${SIZES.ingestRequests} requests of ${BATCH} messages a side, ${CONCURRENCY} concurrent clients`);
  const profileDir = benchConfig.BENCH_PROFILE_DIR;
  const stack = await startStack({
    apps: ['crm', 'gateway'],
    env: { LOG_LEVEL: 'warn', ...PATH_COST_ENV },
    nodeOptions: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  try {
    const portal = await stack.createPortal();
    const bodies = Array.from({ length: 20 }, (_, b) =>
      JSON.stringify(
        submission('CONTACT', b * BATCH, BATCH, (n) => ({ properties: { email: `ingest-${n}@example.com`, firstname: `Name ${n}`, lastname: 'Bench' } })),
      ),
    );
    const gatewayUrl = `${stack.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`;
    const baselineServer = await startBaselineServer();
    const rounds: { ours: Ingest; baseline: Ingest; ratio: number }[] = [];
    try {
      for (let r = 0; r < INGEST_ROUNDS; r++) {
        // Which side goes first alternates: a machine that slows down within a round, or work one side left behind, weighs on both alike.
        const measureBaseline = () => measureIngest(baselineServer.url, bodies, baselineServer.pid);
        const measureOurs = () => measureIngest(gatewayUrl, bodies, stack.pid('gateway'));
        let baseline: Ingest;
        let ours: Ingest;
        if (r % 2 === 0) {
          baseline = await measureBaseline();
          ours = await measureOurs();
        } else {
          ours = await measureOurs();
          baseline = await measureBaseline();
        }
        rounds.push({ ours, baseline, ratio: ours.messagesPerSecond / baseline.messagesPerSecond });
      }
    } finally {
      baselineServer.stop();
    }
    const { ours, baseline, ratio } = middleBy(rounds, (r) => r.ratio);
    return {
      ...ours,
      baselineMessagesPerSecond: baseline.messagesPerSecond,
      baselineP50Ms: baseline.p50Ms,
      baselineP99Ms: baseline.p99Ms,
      baselineServerCpuMsPerRequest: baseline.serverCpuMsPerRequest,
      ratio: round(ratio, 2),
      roundRatios: rounds.map((r) => round(r.ratio, 2)),
    };
  } finally {
    await stack.stop();
  }
}

export type IngestFigure = Awaited<ReturnType<typeof benchIngest>>;

export const ingestRow = (ingest: IngestFigure): string =>
  `| Ingest, messages/s (${SIZES.ingestRequests} × ${BATCH}, ${CONCURRENCY} clients) | ${ingest.messagesPerSecond} (p50 ${ingest.p50Ms} ms, p99 ${ingest.p99Ms} ms; gateway CPU ${ingest.serverCpuMsPerRequest} ms a request) | ${ingest.baselineMessagesPerSecond} (bare express + ajv; ${ingest.baselineServerCpuMsPerRequest} ms a request) | ${ingest.ratio} (the middle of ${ingest.roundRatios.join(', ')}, alternating rounds) | ≥ 0.7, p99 < 50 ms |`;
