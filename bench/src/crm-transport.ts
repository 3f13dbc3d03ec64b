/**
 * What the CRM client's transport costs the applier per request, on this process's CPU: a batch
 * upsert of 100 contacts (its JSON text, as the SDK hands it over) and the CRM's answer of 100
 * results, through CrmTransport with the request log recording (its sink drops what it gets).
 * Baseline: a bare axios POST of the same text with the answer parsed, over the same kept-alive
 * connection. The CRM is a process of its own that answers every request with the same text, so
 * that its work is not on this process's CPU. Rounds alternate between the sides.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import axios from 'axios';
import { CrmTransport, type CrmExchangeSink } from '@ecomm-sync/crm-client';
import { log, quick } from './options';
import { round } from './stats';

export interface CrmTransportFigure {
  requestsPerRound: number;
  /** CPU of this process per request, ms, each round. */
  oursCpuMs: number[];
  baselineCpuMs: number[];
  /** Median baseline ÷ median ours: the transport's speed against a bare POST (1 = as cheap). */
  ratio: number;
}

const PATH = '/crm/v3/objects/contacts/batch/upsert';
const contacts = Array.from({ length: 100 }, (_, i) => ({
  id: `bench-${i}`,
  idProperty: 'ip__ecomm_bridge__sync_key',
  properties: { email: `c${i}@example.com`, firstname: 'Ada', lastname: 'Lovelace', phone: '+44 20 7946 0000', city: 'London', description: 'x'.repeat(120) },
}));
const REQUEST_TEXT = JSON.stringify({ inputs: contacts });
const ANSWER_TEXT = JSON.stringify({
  status: 'COMPLETE',
  results: contacts.map((contact, i) => ({ id: String(1000 + i), properties: contact.properties, createdAt: '2026-12-07T06:00:00.000Z', archived: false })),
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
    child.once('error', reject);
    child.stdout.once('data', (data) => resolve(Number(String(data).trim())));
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
    const transport = new CrmTransport({ baseUrl: answerer.url, token: 'pat-na1-00000000-1111-2222-3333-444444444444', requestLog: sink });
    const bare = axios.create({ baseURL: answerer.url, headers: { 'content-type': 'application/json' }, httpAgent: new http.Agent({ keepAlive: true }) });
    const sides = {
      ours: () => transport.send({ method: 'POST', url: PATH, data: REQUEST_TEXT }),
      baseline: () => bare.post(PATH, REQUEST_TEXT),
    };
    const requests = quick ? 1_000 : 3_000;
    for (const send of Object.values(sides)) await cpuMsPerRequest(send, 300); // warm-up, not counted
    const oursCpuMs: number[] = [];
    const baselineCpuMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      oursCpuMs.push(await cpuMsPerRequest(sides.ours, requests));
      baselineCpuMs.push(await cpuMsPerRequest(sides.baseline, requests));
    }
    const figure = { requestsPerRound: requests, oursCpuMs, baselineCpuMs, ratio: round(median(baselineCpuMs) / median(oursCpuMs), 3) };
    log(`crm transport: ${JSON.stringify(figure)}`);
    return figure;
  } finally {
    answerer.stop();
  }
}

export const crmTransportRow = (figure: CrmTransportFigure): string =>
  `| CRM transport, CPU ms per batch request of 100 contacts (budget off, request log on; ${figure.requestsPerRound} a round, 5 rounds) | ${median(figure.oursCpuMs)} (rounds ${figure.oursCpuMs.join(', ')}) | ${median(figure.baselineCpuMs)} (bare axios POST, answer parsed; rounds ${figure.baselineCpuMs.join(', ')}) | ${figure.ratio} | |`;
