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

/** @param {http.IncomingHttpHeaders} headers */
const endToEnd = (headers) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

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
        'x-crm-edge': secret,
        'x-crm-arrived-at': String(arrivedAt),
        'x-forwarded-for': req.socket.remoteAddress ?? '',
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
