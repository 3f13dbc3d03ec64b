import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { listen } from '@ecomm-sync/runtime';
import type { Server } from 'node:http';
import { stampArrival } from '../entry-points/hosted-limits.middleware';
import { newEdgeSecret, startCrmEdge, type CrmEdge } from './crm-edge';

/**
 * A client in a process of its own (this test's thread is the CRM's main thread, and blocks): it
 * asks for /busy, and once its headers are in, sends /stamp, and prints when it sent it and what came back.
 */
const CLIENT = `
const http = require('node:http');
const port = Number(process.argv[1]);
http.get({ port, path: '/busy' }, (busy) => {
  busy.resume();
  const sentAt = Date.now();
  http.get({ port, path: '/stamp', headers: { 'x-crm-arrived-at': '1', 'x-crm-edge': 'guessed' } }, (answer) => {
    let body = '';
    answer.on('data', (chunk) => (body += chunk));
    answer.on('end', () => console.log(JSON.stringify({ sentAt, status: answer.statusCode, answer: JSON.parse(body) })));
  });
});`;

function runClient(port: number): Promise<{ sentAt: number; status: number; answer: { arrivedAt: number; edgeHeaders: unknown[] } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited with ${code}`))));
  });
}

describe("the built-in CRM's edge thread", () => {
  let server: Server;
  let edge: CrmEdge;
  let busyUntil = 0;

  beforeAll(async () => {
    const secret = newEdgeSecret();
    const app = express();
    app.use(stampArrival(Date.now, secret));
    // Answers its headers, then keeps this thread busy for 1.5 s, as a loaded CRM keeps its event loop.
    app.get('/busy', (_req, res) => {
      res.writeHead(200).flushHeaders();
      const until = Date.now() + 1_500;
      while (Date.now() < until);
      busyUntil = Date.now();
      res.end();
    });
    app.get('/stamp', (req, res) => {
      res.json({ arrivedAt: res.locals.arrivedAt, edgeHeaders: [req.headers['x-crm-edge'], req.headers['x-crm-arrived-at']] });
    });
    server = await listen(app, 0, '127.0.0.1');
    edge = await startCrmEdge({
      port: 0,
      host: '127.0.0.1',
      upstreamPort: (server.address() as AddressInfo).port,
      secret,
      onFailure: (error) => {
        throw error;
      },
    });
  });

  afterAll(async () => {
    await edge?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('when a request arrives while the main thread is busy, then it counts from its arrival at the edge, not from when the main thread read it', async () => {
    const { sentAt, status, answer } = await runClient(edge.port);

    expect(status).toBe(200);
    expect(answer.arrivedAt).toBeGreaterThanOrEqual(sentAt);
    // The main thread read /stamp only after /busy let it go; the edge had stamped it before.
    expect(answer.arrivedAt).toBeLessThan(busyUntil);
  });

  it("when a client sends the edge's headers itself, then they are replaced, and the app never sees them", async () => {
    const { answer } = await runClient(edge.port);

    expect(answer.arrivedAt).not.toBe(1);
    expect(answer.edgeHeaders).toEqual([null, null]);
  });

  it('when a request reaches the main thread without the edge, then a stamp it carries is not believed', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = Date.now();
    const answer = await fetch(`http://127.0.0.1:${port}/stamp`, { headers: { 'x-crm-arrived-at': '1', 'x-crm-edge': 'guessed' } });

    expect(((await answer.json()) as { arrivedAt: number }).arrivedAt).toBeGreaterThanOrEqual(before);
  });
});
