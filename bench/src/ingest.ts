/** The ingest figure: v2 submissions through the gateway against bare express + ajv on the same machine, and the floor of a durable intake beside it. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import amqplib from 'amqplib';
import { namesOf } from '@ecomm-sync/messaging';
import { BATCH, put, submission } from './load';
import { benchConfig } from './config';
import { PATH_COST_ENV, SIZES, log, root, startStack } from './options';
import { cpuSeconds } from './process-stats';
import { middleBy, percentile, pool, round } from './stats';

export const CONCURRENCY = 8;

/**
 * Rounds of the baseline, the floor and the gateway, in rotating order, the figure being the round
 * of the gateway's middle ratio (the floor's row is of that same round): each ratio compares
 * measurements of one round, so what the machine does meanwhile weighs on every side. Measured once
 * each (1,000 requests, under 2 s a side, two sides and no warm-up round then), three runs in a row
 * on a quiet machine read 0.64, 0.51 and 0.47 (2026-12-04).
 */
export const INGEST_ROUNDS = 3;

/**
 * Requests sent before each measurement, so that the servers run optimised code: with 20, the quick
 * figure (then 150 requests) read 0.41–0.49 where 3,000 requests read 0.49–0.60 on the same machine.
 * Not enough on its own: a run's first round had the baseline at 55–60 % of its later rounds (its
 * first measurement, and the bench's own client's), which lifted that round's ratios; a whole round
 * runs first, not counted. Every side still speeds up round by round, the baseline most.
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

interface ReferenceServer {
  url: string;
  pid: number;
  /** Ends the process (SIGTERM, SIGKILL after 5 s); resolves once it exited. */
  stop: () => Promise<void>;
}

/**
 * A reference server of the bench's own (dist/bench/<script>.js), on a free port, measured beside the
 * gateway; `env`, when given, is its whole environment (else it inherits the bench's).
 */
async function startReferenceServer(script: string, env?: Record<string, string>): Promise<ReferenceServer> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'bench', `${script}.js`), '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(env ? { env } : {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    // Its log lines may come first (the floor's broker warns while it connects): only the line that names the port answers.
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (\d+)/.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it listened: ${output.trim()}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}/extensions/ecomm/v2/sync/messages`, pid: child.pid!, stop };
}

/**
 * Empties the stack's sync-batch queues before each side. No mapper runs in this figure, so each
 * side that publishes would otherwise meet the backlog the sides before it left (1,200 batches of
 * 27 KB a side, hundreds of MB by the last round), where the service's mapper keeps them short.
 */
async function syncBatchQueues(url: string, prefix: string): Promise<{ empty: () => Promise<void>; close: () => Promise<void> }> {
  const connection = await amqplib.connect(url);
  // Without listeners, an unexpected close would throw from the emitter and end the bench.
  connection.on('error', (error: Error) => log(`ingest: the queues' connection failed: ${error.message}`));
  const channel = await connection.createChannel().catch(async (error: unknown) => {
    await connection.close().catch(() => undefined);
    throw error;
  });
  channel.on('error', (error: Error) => log(`ingest: the queues' channel failed: ${error.message}`));
  const { main, bulk } = namesOf(prefix, 'mapper.sync-batches');
  return {
    empty: async () => {
      for (const queue of [main, bulk]) if (queue) await channel.purgeQueue(queue);
    },
    close: () => connection.close(),
  };
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
    const queues = await syncBatchQueues(stack.setting('AMQP_URL')!, stack.setting('AMQP_PREFIX')!);
    const servers: ReferenceServer[] = [];
    const rounds: Round[] = [];
    try {
      const baselineServer = await startReferenceServer('baseline-server');
      servers.push(baselineServer);
      // The floor publishes on the stack's own exchange, into the queues the gateway's batches go to (deleted with the stack).
      const amqp = Object.fromEntries(['AMQP_URL', 'AMQP_PREFIX', 'AMQP_RETRY_DELAY_MS'].map((name) => [name, stack.setting(name) ?? '']));
      const floorServer = await startReferenceServer('floor-server', amqp);
      servers.push(floorServer);
      const sides: Record<Side, () => Promise<Ingest>> = {
        baseline: () => measureIngest(baselineServer.url, bodies, baselineServer.pid),
        floor: () => measureIngest(floorServer.url, bodies, floorServer.pid),
        ours: () => measureIngest(gatewayUrl, bodies, stack.pid('gateway')),
      };
      // Which side goes first rotates: a machine that slows down within a round, or work one side left behind, weighs on each alike.
      const measureRound = async (r: number, name: string): Promise<Round> => {
        const measured: Partial<Record<Side, Ingest>> = {};
        for (let s = 0; s < SIDES.length; s++) {
          const side = SIDES[(r + s) % SIDES.length];
          await queues.empty();
          measured[side] = await sides[side]();
        }
        log(
          `ingest: ${name}, messages a second (server CPU a request): ${SIDES.map((side) => `${side} ${measured[side]!.messagesPerSecond} (${measured[side]!.serverCpuMsPerRequest} ms)`).join(', ')}`,
        );
        return measured as Round;
      };
      await measureRound(INGEST_ROUNDS, 'warm-up round (not counted)');
      for (let r = 0; r < INGEST_ROUNDS; r++) rounds.push(await measureRound(r, `round ${r + 1}`));
    } finally {
      // Before the stack goes: the floor's broker must not declare the stack's queues again once they are deleted.
      await Promise.all(servers.map((server) => server.stop()));
      await queues.close().catch(() => undefined);
    }
    const middle = middleBy(rounds, ratioOf);
    const { ours, baseline, floor } = middle;
    return {
      ...ours,
      baselineMessagesPerSecond: baseline.messagesPerSecond,
      baselineP50Ms: baseline.p50Ms,
      baselineP99Ms: baseline.p99Ms,
      baselineServerCpuMsPerRequest: baseline.serverCpuMsPerRequest,
      ratio: round(ratioOf(middle), 2),
      roundRatios: rounds.map((r) => round(ratioOf(r), 2)),
      floorMessagesPerSecond: floor.messagesPerSecond,
      floorP99Ms: floor.p99Ms,
      floorServerCpuMsPerRequest: floor.serverCpuMsPerRequest,
      floorRatio: round(floorRatioOf(middle), 2),
      floorRoundRatios: rounds.map((r) => round(floorRatioOf(r), 2)),
    };
  } finally {
    await stack.stop();
  }
}

const SIDES = ['baseline', 'floor', 'ours'] as const;
type Side = (typeof SIDES)[number];

/** One round: each side measured once. */
type Round = Record<Side, Ingest>;

/** The gateway's messages a second against the baseline's, in one round. */
const ratioOf = (r: Round): number => r.ours.messagesPerSecond / r.baseline.messagesPerSecond;

/** The floor's messages a second against the baseline's, in one round. */
const floorRatioOf = (r: Round): number => r.floor.messagesPerSecond / r.baseline.messagesPerSecond;

export type IngestFigure = Awaited<ReturnType<typeof benchIngest>>;

export const ingestRow = (ingest: IngestFigure): string =>
  `| Ingest, messages/s (${SIZES.ingestRequests} × ${BATCH}, ${CONCURRENCY} clients) | ${ingest.messagesPerSecond} (p50 ${ingest.p50Ms} ms, p99 ${ingest.p99Ms} ms; gateway CPU ${ingest.serverCpuMsPerRequest} ms a request) | ${ingest.baselineMessagesPerSecond} (bare express + ajv; ${ingest.baselineServerCpuMsPerRequest} ms a request) | ${ingest.ratio} (the middle of ${ingest.roundRatios.join(', ')}, rotating rounds) | ≥ 0.7, p99 < 50 ms |`;

/**
 * The floor beside the figure: bare express + ajv that also publishes each batch durably before its
 * 204 (floor-server.ts), in the same rounds. What no gateway that answers "stored" can beat; the
 * gateway against it is the part of the ratio that is ours.
 */
export const ingestFloorRow = (ingest: IngestFigure): string =>
  `| Ingest floor: bare express + ajv + the durable publish (the gateway's middle round) | ${ingest.floorMessagesPerSecond} (p99 ${ingest.floorP99Ms} ms; ${ingest.floorServerCpuMsPerRequest} ms a request) | ${ingest.baselineMessagesPerSecond} | ${ingest.floorRatio} (rounds ${ingest.floorRoundRatios.join(', ')}); the gateway ${round(ingest.messagesPerSecond / ingest.floorMessagesPerSecond, 2)} of the floor | |`;
