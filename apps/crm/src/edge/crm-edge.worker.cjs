// @ts-check
'use strict';
/*
 * The built-in CRM's edge (decision 21, addendum of 2026-11-27): a thread of its own that takes
 * every request first, stamps when it arrived, and passes it on to the CRM's main thread. The
 * hosted CRM counts a request against its limits when it reaches its edge; the main thread reads a
 * request only once it is done with what it is busy with, which on a loaded machine is a second
 * later. This thread does nothing else, so its stamp is the arrival.
 *
 * Plain JavaScript with Node's own modules only: a worker runs a file, and this one is copied next
 * to the app's bundle as it is (tools/scripts/build-app.mjs).
 */
const http = require('node:http');
const { pipeline } = require('node:stream');
const { parentPort, workerData } = require('node:worker_threads');

/** @type {{ port: number; host: string; upstreamPort: number; secret: string }} */
const { port, host, upstreamPort, secret } = workerData;

/** Headers of one connection, not of the request: each hop sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/**
 * The headers that go on to the next hop: not the hop-by-hop ones, nor those the `Connection`
 * header names as such.
 * @param {http.IncomingHttpHeaders} headers
 */
function endToEnd(headers) {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const arrivedAt = Date.now();
  const upstream = http.request(
    {
      host: '127.0.0.1',
      port: upstreamPort,
      method: req.method,
      path: req.url,
      agent,
      headers: {
        ...endToEnd(req.headers),
        // A body without a length came chunked: it goes on chunked, whatever the method.
        ...(req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined ? { 'transfer-encoding': 'chunked' } : {}),
        'x-crm-edge': secret,
        'x-crm-arrived-at': String(arrivedAt),
        'x-forwarded-for': [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', '),
      },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      res.flushHeaders();
      pipeline(answer, res, () => undefined);
    },
  );
  upstream.on('error', () => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'error', category: 'BAD_GATEWAY', message: 'the CRM did not answer; try again' }));
  });
  pipeline(req, upstream, () => undefined);
});
server.keepAliveTimeout = 65_000;

server.on('error', (error) => {
  throw error;
});
server.listen(port, host, () => {
  const address = server.address();
  parentPort?.postMessage({ listening: typeof address === 'object' && address ? address.port : port });
});

parentPort?.on('message', (message) => {
  if (message !== 'close') return;
  server.close(() => {
    agent.destroy();
    parentPort?.postMessage({ closed: true });
  });
  server.closeIdleConnections();
});
