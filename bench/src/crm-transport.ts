/**
 * What the CRM client costs the applier per request, on this process's CPU: a batch upsert of
 * 100 contacts through HttpCrmClient (the vendor's SDK building the request from its models and
 * reading the answer into them, CrmTransport, the request log recording into a sink that drops
 * what it gets; no budget), answered with 100 results. Baseline, the floor of any JSON client: a
 * bare axios POST of the same inputs (encoded once) with its answer parsed (once), over the same
 * kind of kept-alive connection. The CRM is a process of its own that answers every request with
 * the same text, so that its work is not on this process's CPU. Rounds go in ABBA order.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import axios from 'axios';
import { HttpCrmClient, type CrmExchangeSink } from '@ecomm-sync/crm-client';
import { SYNC_KEY_PROPERTY } from '@ecomm-sync/domain';
import { log, quick } from './options';
import { round } from './stats';

export interface CrmTransportFigure {
  requestsPerRound: number;
  /** CPU of this process per request, ms, each round. */
  oursCpuMs: number[];
  baselineCpuMs: number[];
  /** Median baseline ÷ median ours: below 1, ours costs more than the bare POST (0.5: twice as much). */
  ratio: number;
}

const PATH = '/crm/v3/objects/contacts/batch/upsert';
const TOKEN = 'pat-na1-00000000-1111-2222-3333-444444444444';
const ROUNDS = 7; // odd: the median is a round's own figure
const inputs = Array.from({ length: 100 }, (_, i) => ({
  id: `bench-${i}`,
  properties: { email: `c${i}@example.com`, firstname: 'Ada', lastname: 'Lovelace', phone: '+44 20 7946 0000', city: 'London', description: 'x'.repeat(120) },
}));
const ANSWER_TEXT = JSON.stringify({
  status: 'COMPLETE',
  results: inputs.map((input, i) => ({
    id: String(1000 + i),
    properties: input.properties,
    createdAt: '2026-12-07T06:00:00.000Z',
    updatedAt: '2026-12-07T06:00:00.000Z',
    archived: false,
    new: false,
  })),
  startedAt: '2026-12-07T06:00:00.000Z',
  completedAt: '2026-12-07T06:00:00.100Z',
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A CRM in a process of its own that answers every request with ANSWER_TEXT. */
async function startAnswerer(): Promise<{ url: string; stop: () => void }> {
  const source = `const http = require('node:http'); const text = ${JSON.stringify(ANSWER_TEXT)};
    const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(text); }); });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the bench's CRM did not listen within 10 s")), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench's CRM exited (${code}) before it listened`));
    });
    child.stdout.once('data', (data) => {
      clearTimeout(timer);
      resolve(Number(String(data).trim()));
    });
  }).catch((error: unknown) => {
    child.kill();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function cpuMsPerRequest(send: () => Promise<unknown>, requests: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) await send();
  const used = process.cpuUsage(before);
  return round((used.user + used.system) / 1000 / requests, 3);
}

export async function benchCrmTransport(): Promise<CrmTransportFigure> {
  const answerer = await startAnswerer();
  try {
    const sink: CrmExchangeSink = { record: () => undefined };
    const client = new HttpCrmClient({ baseUrl: answerer.url, token: TOKEN, requestLog: sink, chunksAtOnce: 1 });
    const bare = axios.create({
      baseURL: answerer.url,
      headers: { authorization: `Bearer ${TOKEN}` },
      httpAgent: new http.Agent({ keepAlive: true }),
    });
    // What the client sends, field for field (its trace ids included), encoded once.
    const wire = inputs.map((input, i) => ({ ...input, idProperty: SYNC_KEY_PROPERTY, objectWriteTraceId: String(i) }));
    const sides = {
      ours: () => client.batchUpsert('CONTACT', SYNC_KEY_PROPERTY, inputs),
      baseline: () => bare.post(PATH, { inputs: wire }),
    };
    const requests = quick ? 1_000 : 3_000;
    for (const send of Object.values(sides)) await cpuMsPerRequest(send, 1_000); // warm-up, not counted
    const oursCpuMs: number[] = [];
    const baselineCpuMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // ABBA: neither side always runs on the other's garbage.
      const order = i % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
      for (const side of order) (side === 'ours' ? oursCpuMs : baselineCpuMs).push(await cpuMsPerRequest(sides[side], requests));
    }
    const figure = { requestsPerRound: requests, oursCpuMs, baselineCpuMs, ratio: round(median(baselineCpuMs) / median(oursCpuMs), 3) };
    log(`crm transport: ${JSON.stringify(figure)}`);
    return figure;
  } finally {
    answerer.stop();
  }
}

export const crmTransportRow = (figure: CrmTransportFigure): string =>
  `| CRM client, CPU ms per batch upsert of 100 contacts (SDK, transport, request log on, no budget; ${figure.requestsPerRound} a round, ${ROUNDS} rounds ABBA) | ${median(figure.oursCpuMs)} (rounds ${figure.oursCpuMs.join(', ')}) | ${median(figure.baselineCpuMs)} (bare axios POST of the inputs, answer parsed; rounds ${figure.baselineCpuMs.join(', ')}) | ${figure.ratio} | |`;
