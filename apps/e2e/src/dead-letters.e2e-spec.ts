import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import amqplib from 'amqplib';
import { TestStack, type TestPortal } from '@ecomm-sync/test-harness';
import { aV2Message, aV2Submission, testInfrastructure, waitFor } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';

describe('dead letters: nothing accepted is set aside unseen, and one command applies it after all', () => {
  let stack: TestStack;
  let portal: TestPortal;

  beforeAll(async () => {
    // Two quick attempts, so that a CRM that is away dead-letters within the test.
    stack = await TestStack.start({ env: { AMQP_RETRY_DELAY_MS: '200', AMQP_MAX_ATTEMPTS: '2', LOG_LEVEL: 'error' } });
    portal = await stack.createPortal();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const deadLetters = async (queue: string) => {
    const connection = await amqplib.connect(testInfrastructure().amqpUrl);
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(`${stack.name}.${queue}.dlq`)).messageCount;
    } finally {
      await connection.close();
    }
  };

  it('when changes are dead-lettered because the CRM stayed away, then each object has an open error naming the redrive, and `npm run redrive` applies them and resolves it', async () => {
    const client = gatewayClient(stack, portal);
    await stack.stopApp('crm', 'SIGKILL');
    const ids = ['dl-1', 'dl-2', 'dl-3'];
    await client.putV2(aV2Submission('CONTACT', ids.map((id) => aV2Message({ externalObjectId: id, properties: { email: `${id}@example.com`, firstname: 'Set aside' } }))));

    const errors = await waitFor(
      async () => {
        const response = await client.http.get('/v2/sync/errors/portal');
        const found = (response.data.results as { externalObjectId: string; type: string; details: string }[]).filter((error) => ids.includes(error.externalObjectId));
        return found.length === ids.length ? found : undefined;
      },
      { timeoutMs: 30_000, message: 'an error record for every dead-lettered object' },
    );
    for (const error of errors) {
      expect(error.type).toBe('UNKNOWN_ERROR');
      expect(error.details).toMatch(/^Error performing\[UPSERT\] CONTACT\[dl-\d\]: processing failed 2 times .*npm run redrive -- applier\.mapped-changes$/);
    }
    expect(await deadLetters('applier.mapped-changes')).toBe(1);

    await stack.startApp('crm');
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, '../../../dist/apps/cli/main.js'), 'redrive', '--all'], {
      env: { ...process.env, AMQP_URL: testInfrastructure().amqpUrl, AMQP_PREFIX: stack.name },
    });
    expect(stdout).toContain('applier.mapped-changes: moved 1 dead letter(s) back to the queue');

    for (const id of ids) {
      const status = await client.statusWhen('CONTACT', id, (s) => s.crmId !== null && s.errors.length === 0, `${id} to be applied after the redrive`);
      expect(status.lastProcessedAt).toEqual(expect.any(Number));
    }
    expect(await deadLetters('applier.mapped-changes')).toBe(0);
  });
});
