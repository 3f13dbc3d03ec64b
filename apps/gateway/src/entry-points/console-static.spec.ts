import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createLogger, errorHandler, notFoundHandler } from '@ecomm-sync/runtime';
import { consoleStaticFiles } from './console-static';

describe('the console build under /console', () => {
  let dir: string;
  const appWith = (consoleDir: string | undefined) => {
    const app = express();
    app.use(consoleStaticFiles(consoleDir));
    app.use(notFoundHandler());
    app.use(errorHandler(createLogger('test', 'error')));
    return app;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-build-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when /console is asked for, then it redirects to /console/', async () => {
    await request(appWith(dir)).get('/console').expect(301).expect('location', '/console/');
  });

  it.each(['/console/', '/console/portals/101/errors'])('when %s is asked for, then index.html answers with a strict content security policy', async (url) => {
    const response = await request(appWith(dir)).get(url).expect(200);
    expect(response.text).toContain('<title>console</title>');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('when a built asset is asked for, then it answers with a long cache lifetime', async () => {
    const response = await request(appWith(dir)).get('/console/assets/index-abc.js').expect(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('when an asset that is not in the build is asked for, then it answers 404, not the page', async () => {
    const response = await request(appWith(dir)).get('/console/assets/index-old.js').expect(404);
    expect(response.body).toEqual({ status: 'error', message: expect.stringContaining('No console asset'), requestId: undefined });
  });

  it('when a console API path has no route, then it answers 404 in the error shape, not the page', async () => {
    const response = await request(appWith(dir)).get('/console/api/v1/nothing').expect(404);
    expect(response.body.status).toBe('error');
  });

  it("when the site's root icon is asked for, then it is sent to the console's icon", async () => {
    await request(appWith(dir)).get('/favicon.ico').expect(302).expect('location', '/console/favicon.svg');
  });

  it('when the console is not built, then /console answers 404 saying how to build it', async () => {
    const response = await request(appWith(undefined)).get('/console/').expect(404);
    expect(response.body.message).toContain('nx build console');
  });
});
