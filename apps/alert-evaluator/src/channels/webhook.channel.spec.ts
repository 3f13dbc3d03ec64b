import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretBox, sealedFor, storedDestinationTarget, type AlertDestination, type AlertNotice } from '@ecomm-sync/data-access';
import { idempotencyKey, SlackChannel, WebhookChannel } from './webhook.channel';

describe('idempotencyKey', () => {
  it.each([
    ['when the id is a rule, a window and a destination, then it is sent as a quoted string', 'r-1:7:d-2', '"r-1:7:d-2"'],
    ['when the id holds a double quote, then the quote is escaped', 'r"1', '"r\\"1"'],
    ['when the id holds a backslash, then the backslash is escaped', 'r\\1', '"r\\\\1"'],
  ])('%s', (_name, id, expected) => {
    expect(idempotencyKey({ id })).toEqual({ 'idempotency-key': expected });
  });
});

const box = new SecretBox('the-current-secrets-key');
const http = { timeoutMs: 2000, allowPrivateTargets: true };
const notice = {
  id: 'n-1',
  body: { state: 'firing', portalId: 1, appId: null, storeId: null, rule: { name: 'Errors' }, summary: 's', link: 'l' },
} as unknown as AlertNotice;

/** A destination as the gateway stores it: its URL sealed for it, beside how it reads. */
function aDestination(kind: 'webhook' | 'slack', url: string, fields: Partial<AlertDestination> = {}): AlertDestination {
  return {
    id: 'd-1',
    portalId: 1,
    appId: null,
    kind,
    ...storedDestinationTarget(box, 'd-1', kind, url),
    label: 'On call',
    sealedSecret: kind === 'webhook' ? box.seal('whsec-1', sealedFor.alertDestinationSecret('d-1')) : null,
    createdAt: 0,
    ...fields,
  };
}

describe('WebhookChannel and SlackChannel', () => {
  let server: Server;
  let base: string;
  let paths: string[];
  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      request.resume().on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => (paths = []));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ['webhook', () => new WebhookChannel(box, http)],
    ['slack', () => new SlackChannel(box, http)],
  ] as const)('when a %s destination’s URL is stored sealed, then the notice is posted to the URL it opens to', async (kind, channel) => {
    const destination = aDestination(kind, `${base}/services/T0/B0/secret-token`);
    expect(destination.target).not.toContain('secret-token');

    expect(await channel().send(destination, notice)).toEqual({ ok: true });
    expect(paths).toEqual(['/services/T0/B0/secret-token']);
  });

  it('when a destination’s URL was stored whole (before URLs were sealed), then the notice is posted to it as it is', async () => {
    const destination = aDestination('slack', `${base}/old`, { target: `${base}/old`, shownTarget: null });

    expect(await new SlackChannel(box, http).send(destination, notice)).toEqual({ ok: true });
    expect(paths).toEqual(['/old']);
  });

  it.each([
    ['webhook', () => new WebhookChannel(box, http)],
    ['slack', () => new SlackChannel(box, http)],
  ] as const)(
    'when a %s destination’s URL was sealed under a key the evaluator no longer has, then the notice fails for good, saying why, without a request',
    async (kind, channel) => {
      const sealedUnderOldKey = new SecretBox('a-retired-secrets-key').seal(`${base}/hook`, sealedFor.alertDestinationUrl('d-1'));
      const destination = aDestination(kind, `${base}/hook`, { target: sealedUnderOldKey });

      const attempt = await channel().send(destination, notice);

      expect(attempt).toEqual({
        ok: false,
        final: true,
        error: expect.stringMatching(new RegExp(`^the ${kind} destination's URL cannot be opened \\(.+\\)$`)),
      });
      expect(paths).toEqual([]);
    },
  );

  it('when the destination’s secret was sealed under a key the evaluator no longer has, then the notice fails for good, saying why, without a request', async () => {
    const destination = aDestination('webhook', `${base}/hook`, {
      sealedSecret: new SecretBox('a-retired-secrets-key').seal('whsec', sealedFor.alertDestinationSecret('d-1')),
    });

    const attempt = await new WebhookChannel(box, http).send(destination, notice);

    expect(attempt).toEqual({ ok: false, final: true, error: expect.stringMatching(/^the webhook destination's signing secret cannot be opened \(.+\)$/) });
    expect(paths).toEqual([]);
  });
});
