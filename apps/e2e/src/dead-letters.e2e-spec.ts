import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { aV2Message, aV2Submission, testInfrastructure, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { deadLetterCount } from './dead-letter-count';
import { gatewayClient } from './gateway-client';

/**
 * What the services take for the CRM: the built-in CRM behind a proxy that can be switched to
 * answer an HTML page to everything (a misconfigured proxy), which is no CRM answer at all: not a
 * wait, not an input the CRM refused, but a failure the consumer retries and then sets aside.
 */
async function switchableProxy(target: () => string) {
  const state = { garbage: false };
  const server = http.createServer((req, res) => {
    if (state.garbage) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Down for maintenance</body></html>');
      return;
    }
    const upstream = http.request(`${target()}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('dead letters: nothing accepted is set aside unseen, and one command applies it after all', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;

  beforeAll(async () => {
    proxy = await switchableProxy(() => stack.crmUrl);
    // Two quick attempts, so that the failing changes are dead-lettered within the test.
    stack = await TestStack.start({ env: { AMQP_RETRY_DELAY_MS: '200', AMQP_MAX_ATTEMPTS: '2', LOG_LEVEL: 'error', CRM_BASE_URL: proxy.url } });
    portal = await stack.createPortal();
  });

  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
  });

  it('when changes are dead-lettered because the CRM answered what is not its API, then each object has an open error naming the redrive, and `npm run redrive` applies them and resolves it', async () => {
    const client = gatewayClient(stack, portal);
    proxy.state.garbage = true;
    const ids = ['dl-1', 'dl-2', 'dl-3'];
    await client.putV2(
      aV2Submission(
        'CONTACT',
        ids.map((id) => aV2Message({ externalObjectId: id, properties: { email: `${id}@example.com`, firstname: 'Set aside' } })),
      ),
    );

    const errors = await waitFor(
      async () => {
        const response = await client.http.get('/v2/sync/errors/portal');
        const found = (response.data.results as { externalObjectId: string; type: string; details: string }[]).filter((error) =>
          ids.includes(error.externalObjectId),
        );
        return found.length === ids.length ? found : undefined;
      },
      { timeoutMs: 30_000, message: 'an error record for every dead-lettered object' },
    );
    for (const error of errors) {
      expect(error.type).toBe('UNKNOWN_ERROR');
      expect(error.details).toMatch(/^Error performing\[UPSERT\] CONTACT\[dl-\d\]: processing failed 2 times .*npm run redrive -- applier\.mapped-changes$/);
    }
    // The error is recorded before the message is rejected, and the broker moves it to the dead-letter
    // queue after that: on a loaded machine the queue may not hold it yet when the error is seen.
    expect(
      await waitFor(async () => ((await deadLetterCount(stack, ['applier.mapped-changes'])) === 1 ? 1 : undefined), {
        timeoutMs: 15_000,
        message: 'the dead-lettered change in applier.mapped-changes.dlq',
      }),
    ).toBe(1);

    proxy.state.garbage = false;
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, '../../../dist/apps/cli/main.js'), 'redrive', '--all'], {
      env: { ...process.env, AMQP_URL: testInfrastructure().amqpUrl, AMQP_PREFIX: stack.name },
    });
    expect(stdout).toContain('applier.mapped-changes: moved 1 dead letter(s) back to the queue');

    for (const id of ids) {
      const status = await client.statusWhen('CONTACT', id, (s) => s.crmId !== null && s.errors.length === 0, `${id} to be applied after the redrive`);
      expect(status.lastProcessedAt).toEqual(expect.any(Number));
    }
    expect(await deadLetterCount(stack, ['applier.mapped-changes'])).toBe(0);
  });
});
