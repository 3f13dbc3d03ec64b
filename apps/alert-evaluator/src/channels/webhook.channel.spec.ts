import { SecretBox, sealedFor, type AlertDestination, type AlertNotice } from '@ecomm-sync/data-access';
import { idempotencyKey, WebhookChannel } from './webhook.channel';

describe('idempotencyKey', () => {
  it.each([
    ['when the id is a rule, a window and a destination, then it is sent as a quoted string', 'r-1:7:d-2', '"r-1:7:d-2"'],
    ['when the id holds a double quote, then the quote is escaped', 'r"1', '"r\\"1"'],
    ['when the id holds a backslash, then the backslash is escaped', 'r\\1', '"r\\\\1"'],
  ])('%s', (_name, id, expected) => {
    expect(idempotencyKey({ id })).toEqual({ 'idempotency-key': expected });
  });
});

describe('WebhookChannel', () => {
  it('when the destination’s secret was sealed under a key the evaluator no longer has, then the notice fails for good, saying why, without a request', async () => {
    const destination: AlertDestination = {
      id: 'd-1',
      portalId: 1,
      appId: null,
      kind: 'webhook',
      // A reserved name (RFC 2606): nothing may be called.
      target: 'https://alerts.example.invalid/hook',
      label: 'On call',
      sealedSecret: new SecretBox('a-retired-secrets-key').seal('whsec', sealedFor.alertDestinationSecret('d-1')),
      createdAt: 0,
    };
    const channel = new WebhookChannel(new SecretBox('the-current-secrets-key'), { timeoutMs: 100, allowPrivateTargets: false });

    const attempt = await channel.send(destination, { id: 'n-1', body: {} } as unknown as AlertNotice);

    expect(attempt).toEqual({ ok: false, final: true, error: expect.stringMatching(/^the webhook destination's signing secret cannot be opened \(.+\)$/) });
  });
});
