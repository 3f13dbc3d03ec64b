import { spawn } from 'node:child_process';
import http from 'node:http';
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

function runClient(
  port: number,
): Promise<{ sentAt: number; status: number; answer: { arrivedAt: number; stampsSeen: number; stampSeen: string; edgeHeaders: unknown[] } }> {
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
    // What reached the app, before stampArrival takes the edge's headers off.
    app.use((req, res, next) => {
      res.locals.stampsSeen = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i].toLowerCase() === 'x-crm-arrived-at').length;
      res.locals.stampSeen = req.headers['x-crm-arrived-at'];
      next();
    });
    app.use(stampArrival(Date.now, secret));
    // Answers its headers, then keeps this thread busy for 1.5 s, as a loaded CRM keeps its event loop.
    app.get('/busy', (_req, res) => {
      res.writeHead(200).flushHeaders();
      const until = Date.now() + 1_500;
      while (Date.now() < until);
      busyUntil = Date.now();
      res.end();
    });
    app.delete('/echo', express.json(), (req, res) => {
      res.json(req.body);
    });
    app.get('/stamp', (req, res) => {
      res.json({
        arrivedAt: res.locals.arrivedAt,
        stampsSeen: res.locals.stampsSeen,
        stampSeen: res.locals.stampSeen,
        edgeHeaders: [req.headers['x-crm-edge'], req.headers['x-crm-arrived-at']],
      });
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

  it("when a client sends the edge's headers itself, then the edge's own replace them, and the app's handlers see neither", async () => {
    const { answer } = await runClient(edge.port);

    expect(answer.stampsSeen).toBe(1);
    expect(answer.stampSeen).toBe(String(answer.arrivedAt));
    expect(answer.arrivedAt).not.toBe(1);
    expect(answer.edgeHeaders).toEqual([null, null]);
  });

  it('when a DELETE comes with a chunked body, then the app reads the body whole, as one request', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          port: edge.port,
          host: '127.0.0.1',
          path: '/echo',
          method: 'DELETE',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      request.write('{"parts":');
      request.end('["one","two"]}');
    });

    expect(answer).toEqual({ status: 200, body: '{"parts":["one","two"]}' });
  });

  it('when a request reaches the main thread without the edge, then a stamp it carries is not believed', async () => {
    const port = (server.address() as AddressInfo).port;
    const before = Date.now();
    const answer = await fetch(`http://127.0.0.1:${port}/stamp`, { headers: { 'x-crm-arrived-at': '1', 'x-crm-edge': 'guessed' } });

    expect(((await answer.json()) as { arrivedAt: number }).arrivedAt).toBeGreaterThanOrEqual(before);
  });
});
