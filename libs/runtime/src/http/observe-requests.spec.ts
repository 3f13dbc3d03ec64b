import express from 'express';
import request from 'supertest';
import { currentLogContext } from '../logger';
import { startMetrics } from '../observability';
import { metricsRoutes, observeRequests } from './observe-requests';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

function app() {
  const server = express();
  server.use(metricsRoutes());
  server.use(observeRequests());
  server.get('/items/:id', (_req, res) => {
    res.json(currentLogContext());
  });
  return server;
}

describe('observeRequests', () => {
  beforeAll(() => startMetrics());

  it('when a request carries a valid traceparent, then its work runs in a new span of that trace', async () => {
    const { body } = await request(app()).get('/items/1').set('traceparent', `00-${TRACE}-${PARENT}-01`).expect(200);
    expect(body).toEqual({ traceId: TRACE, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), sampled: true });
    expect(body.spanId).not.toBe(PARENT);
  });

  it.each([
    ['no traceparent', undefined],
    ['an invalid traceparent', `00-${'0'.repeat(32)}-${PARENT}-01`],
  ])('when a request carries %s, then it starts a trace of its own', async (_case, header) => {
    const call = request(app()).get('/items/1');
    const { body } = await (header ? call.set('traceparent', header) : call).expect(200);
    expect(body.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(body.traceId).not.toBe(TRACE);
  });

  it('when requests are served, then /metrics counts them by route template and status, unmatched ones apart', async () => {
    const server = app();
    await request(server).get('/items/7').expect(200);
    await request(server).get('/items/8').expect(200);
    await request(server).get('/nowhere/at-all').expect(404);
    const { text } = await request(server).get('/metrics').expect(200);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/items\/:id",status_code="200"\} [2-9]\d*$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1$/m);
    expect(text).not.toContain('/nowhere');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
