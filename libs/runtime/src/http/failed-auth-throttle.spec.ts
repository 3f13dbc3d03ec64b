import express from 'express';
import request from 'supertest';
import { createLogger } from '../logger';
import { AppError } from './app-error';
import { errorHandler } from './error-handler';
import { byClientAddress, failedAuthThrottle } from './failed-auth-throttle';

/** An error of a CRM client as the gateway meets it: a 401 the CRM answered, not an AppError. */
class CrmRequestError extends Error {
  readonly status = 401;
  constructor() {
    super('OAuth refresh failed (400): invalid_grant');
    this.name = 'CrmRequestError';
  }
}

function app(thrown: () => Error) {
  const served = express();
  served.get('/', () => {
    throw thrown();
  });
  served.use(failedAuthThrottle({ limit: 1, windowMs: 60_000 }, [byClientAddress]));
  served.use(errorHandler(createLogger('throttle-test', 'error')));
  return served;
}

describe('failedAuthThrottle', () => {
  it('when a caller fails its own authentication past the limit, then it is answered 429', async () => {
    const served = app(() => new AppError(401, 'Unknown API key'));
    await request(served).get('/').expect(401);
    await request(served).get('/').expect(429);
  });

  it('when a dependency answers 401 (a CRM refusing the connection), then it is not counted as a failed authentication', async () => {
    const served = app(() => new CrmRequestError());
    for (let i = 0; i < 3; i++) expect((await request(served).get('/')).status).not.toBe(429);
  });
});
