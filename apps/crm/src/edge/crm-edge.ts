import { randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { IncomingHttpHeaders } from 'node:http';

/** The file the edge thread runs: next to this module in the sources, next to the bundle in dist. */
const WORKER_FILE = path.join(__dirname, 'crm-edge.worker.cjs');

export interface CrmEdge {
  /** The port the edge listens on (the CRM's public port). */
  port: number;
  /** Stops taking requests, lets the ones under way finish, and ends the thread. */
  close(): Promise<void>;
}

export interface CrmEdgeOptions {
  /** The public port (0: any free one). */
  port: number;
  host?: string;
  /** The main thread's server, on 127.0.0.1, that the edge passes every request to. */
  upstreamPort: number;
  /** What the main thread trusts an arrival stamp by (newEdgeSecret): only the edge and it know it. */
  secret: string;
  /** Called once when the edge thread fails or ends after it started (not by `close`): the CRM cannot take requests without it. */
  onFailure(error: Error): void;
}

/** A new secret for the edge's stamps, one per process. */
export const newEdgeSecret = (): string => randomBytes(24).toString('base64url');

/**
 * Starts the built-in CRM's edge thread (crm-edge.worker.cjs; decision 21, addendum of
 * 2026-11-27): it takes every request first and stamps when it arrived, so that the hosted limits
 * count a request at its arrival, as the hosted CRM does at its edge, however busy the main thread is.
 */
export function startCrmEdge(options: CrmEdgeOptions): Promise<CrmEdge> {
  const { port, host = '0.0.0.0', upstreamPort, secret } = options;
  const worker = new Worker(WORKER_FILE, { workerData: { port, host, upstreamPort, secret } });
  return new Promise((resolve, reject) => {
    let started = false;
    let closing = false;
    let failed = false;
    let exited = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      options.onFailure(error);
    };
    worker.on('error', (error) => (started ? fail(error) : reject(error)));
    worker.on('exit', (code) => {
      exited = true;
      if (!started) reject(new Error(`the CRM's edge thread ended (code ${code}) before it listened`));
      else if (!closing) fail(new Error(`the CRM's edge thread ended (code ${code})`));
    });
    worker.once('message', (message: { listening?: number }) => {
      started = true;
      resolve({
        port: message.listening ?? port,
        close: () =>
          new Promise<void>((closed) => {
            closing = true;
            if (exited) return closed();
            // Closed when the thread says its server closed, or when it is gone already.
            worker.once('exit', () => closed());
            worker.once('message', () => void worker.terminate());
            worker.postMessage('close');
          }),
      });
    });
  });
}

/**
 * When the edge stamped the request, if it came through the edge of this process (its secret);
 * undefined otherwise (a request to the main thread's server directly, as in tests of the app).
 * The edge's headers are taken off the request either way.
 */
export function edgeArrival(headers: IncomingHttpHeaders, secret: string | undefined): number | undefined {
  const sentSecret = headers['x-crm-edge'];
  const stamp = headers['x-crm-arrived-at'];
  delete headers['x-crm-edge'];
  delete headers['x-crm-arrived-at'];
  if (!secret || typeof sentSecret !== 'string' || typeof stamp !== 'string') return undefined;
  const expected = Buffer.from(secret);
  const given = Buffer.from(sentSecret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const arrivedAt = Number(stamp);
  return Number.isSafeInteger(arrivedAt) ? arrivedAt : undefined;
}
