import { gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { createLogger } from '../logger';
import { AppError } from './app-error';
import { errorHandler, notFoundHandler } from './error-handler';
import { healthApp } from './health';
import { bodyBytesOf, jsonBody } from './json-body';
import { requestContext } from './request-context';

function app() {
  const server = express();
  server.use(requestContext());
  // A form route before the JSON parser, as the gateway's /oauth/v1/token is.
  server.post('/form', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) => {
    res.json(req.body);
  });
  server.use(jsonBody('1kb'));
  server.put('/echo', (req, res) => {
    res.json(req.body);
  });
  server.put('/size', (req, res) => {
    res.json({ bytes: bodyBytesOf(req) ?? null });
  });
  server.get('/teapot', () => {
    throw new AppError(418, 'I am a teapot');
  });
  server.get('/boom', () => {
    throw new Error('secret internals');
  });
  server.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  server.get('/database-away', () => {
    throw Object.assign(new Error('Server selection timed out after 10000 ms'), { name: 'MongoServerSelectionError' });
  });
  server.get('/database-away-wrapped', () => {
    throw new Error('loading the settings failed', { cause: Object.assign(new Error('connection refused'), { name: 'MongoNetworkError' }) });
  });
  server.get('/crm-refused', () => {
    throw Object.assign(new Error('CRM answered 400'), { name: 'CrmRequestError' });
  });
  server.get('/crm-away', () => {
    throw Object.assign(new Error('the CRM did not answer: connect ECONNREFUSED'), { name: 'CrmUnavailableError' });
  });
  server.use(notFoundHandler());
  server.use(errorHandler(createLogger('test', 'error')));
  return server;
}

const errorBody = (message: string | RegExp) => ({
  status: 'error',
  message: expect.stringMatching(message),
  requestId: expect.stringMatching(/^[a-z0-9]{32}$/),
});

describe('http error model', () => {
  it.each([
    ['malformed JSON', 400, (r: request.Test) => r.set('content-type', 'application/json').send('{"a":'), /not valid JSON/],
    ['a body that is not JSON', 415, (r: request.Test) => r.set('content-type', 'text/plain').send('hello'), /Content-Type must be application\/json/],
    [
      'a body over the limit',
      413,
      (r: request.Test) => r.set('content-type', 'application/json').send(JSON.stringify({ a: 'x'.repeat(2000) })),
      /larger than 1kb/,
    ],
  ])('answers %s with %i and the error body', async (_name, status, send, message) => {
    const response = await send(request(app()).put('/echo'));
    expect(response.status).toBe(status);
    expect(response.body).toEqual(errorBody(message));
    expect(response.headers['x-request-id']).toBe(response.body.requestId);
  });

  describe('the size of a JSON body', () => {
    const body = JSON.stringify({ a: 'x'.repeat(300) });

    it('when the body comes with its length, then its size is that length', async () => {
      const response = await request(app()).put('/size').set('content-type', 'application/json').send(body);
      expect(response.body).toEqual({ bytes: Buffer.byteLength(body) });
    });

    it('when the body comes in chunks without a length, then its size is what arrived', async () => {
      const sending = request(app()).put('/size').set('content-type', 'application/json');
      sending.write(body.slice(0, 100));
      sending.write(body.slice(100));
      const response = await sending;
      expect(response.body).toEqual({ bytes: Buffer.byteLength(body) });
    });

    it('when the body is compressed, then its size is the size decompressed (what is held in memory)', async () => {
      const sending = request(app()).put('/size').set('content-type', 'application/json').set('content-encoding', 'gzip');
      sending.write(gzipSync(body));
      const response = await sending;
      expect(response.body).toEqual({ bytes: Buffer.byteLength(body) });
    });

    it('when the body is empty, then its size is 0', async () => {
      const response = await request(app()).put('/size');
      expect(response.body).toEqual({ bytes: 0 });
    });
  });

  it('answers an unknown path with 404', async () => {
    const response = await request(app()).get('/nope');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody(/No endpoint GET \/nope/));
  });

  it('passes an AppError status and message through', async () => {
    const response = await request(app()).get('/teapot');
    expect(response.status).toBe(418);
    expect(response.body).toEqual(errorBody('I am a teapot'));
  });

  it('hides the internals of an unexpected error behind a 500', async () => {
    const response = await request(app()).get('/boom');
    expect(response.status).toBe(500);
    expect(response.body.message).not.toContain('secret');
  });

  it.each(['/database-away', '/database-away-wrapped'])(
    'when the database cannot be reached (%s), then the answer is 503 with Retry-After, not 500',
    async (path) => {
      const response = await request(app()).get(path);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toEqual(errorBody(/database cannot be reached right now; nothing was changed/));
    },
  );

  it.each(['/crm-refused', '/crm-away'])('when the CRM refuses or cannot be reached (%s), then the answer is 502 with Retry-After, not 500', async (path) => {
    const response = await request(app()).get(path);
    expect(response.status).toBe(502);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.body).toEqual(errorBody(/The CRM did not answer properly/));
  });

  it.each([
    [
      'a plain body sent as gzip',
      400,
      () => request(app()).put('/echo').set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"a":1}'),
      /could not be decompressed; check its Content-Encoding/,
    ],
    ['a form sent as gzip', 400, () => request(app()).post('/form').type('form').set('content-encoding', 'gzip').send('a=1'), /could not be decompressed/],
    [
      'a form with an unknown Content-Encoding',
      415,
      () => request(app()).post('/form').type('form').set('content-encoding', 'zstd-x').send('a=1'),
      /Content-Encoding "zstd-x" is not supported/,
    ],
    [
      'a form with 1,200 parameters',
      413,
      () =>
        request(app())
          .post('/form')
          .type('form')
          .send(Array.from({ length: 1200 }, (_, i) => `p${i}=1`).join('&')),
      /too many parameters/,
    ],
    [
      'a form over its limit',
      413,
      () =>
        request(app())
          .post('/form')
          .type('form')
          .send(`a=${'x'.repeat(20_000)}`),
      /larger than/,
    ],
    [
      'a UTF-16 form',
      415,
      () => request(app()).post('/form').set('content-type', 'application/x-www-form-urlencoded; charset=utf-16').send('a=1'),
      /charset "utf-16" is not supported/,
    ],
    ['a malformed percent-encoding in the path', 400, () => request(app()).get('/items/%ZZ'), /malformed percent-encoding/],
  ])('when the framework cannot read %s, then the answer is %i with what to fix, not 500', async (_case, status, send, message) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toEqual(errorBody(message));
  });

  it('parses a JSON body', async () => {
    const response = await request(app()).put('/echo').send({ a: 1 });
    expect(response.body).toEqual({ a: 1 });
  });

  it.each([
    ['an unknown path', () => request(healthApp({}, createLogger('test', 'error'))).get('/nope'), 404, /No endpoint GET \/nope/],
    [
      'a body labelled gzip on an unknown path',
      () =>
        request(healthApp({}, createLogger('test', 'error')))
          .post('/healthz/%ZZ')
          .set('content-encoding', 'gzip')
          .send('{}'),
      404,
      /No endpoint POST/,
    ],
  ])('when a health server gets %s, then it answers in the error shape', async (_case, send, status, message) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toEqual(errorBody(message));
  });
});
