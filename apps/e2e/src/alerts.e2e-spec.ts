import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { SMTPServer } from 'smtp-server';
import type { AlertNoticeBody } from '@ecomm-sync/contracts';
import { aV2Message, aV2Submission, startWebhookReceiver, type TestPortal, TestStack, waitFor, type WebhookReceiver } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';

/** A real SMTP receiver: every message it accepts, as raw text. */
async function startSmtpReceiver(): Promise<{ url: string; mails: string[]; close(): Promise<void> }> {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Issue 29, proof: a portal with an e-mail and a webhook destination; an INVALID_EMAIL_ADDRESS error
 * crosses its rule's threshold → exactly one e-mail and one signed webhook; fixed → one "resolved"
 * notice each; the CRM token revoked in the built-in CRM → a "connection failing" notice; with two
 * evaluator replicas, no duplicate.
 */
describe('alerts and notices', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let receiver: WebhookReceiver;
  let secret = '';
  const consoleApi = () =>
    axios.create({ baseURL: `${stack.gatewayUrl}/console/api/v1/alerts`, params: { hapikey: portal.apiKey }, validateStatus: () => true });
  const webhooks = () => receiver.received.map((hook) => ({ body: hook.body as AlertNoticeBody, verified: hook.verified, headers: hook.headers }));
  const mailsAbout = (text: string) => smtp.mails.filter((mail) => mail.includes(text));

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    receiver = await startWebhookReceiver(
      () => secret,
      () => ({ status: 200, json: {} }),
    );
    stack = await TestStack.start({
      env: {
        ALERT_EVALUATION_INTERVAL_MS: '500',
        // The CRM probe as often as the rules are evaluated: the revoked token is seen within the test's wait, not after 5 minutes.
        ALERT_CRM_PROBE_INTERVAL_MS: '500',
        ALERT_SMTP_URL: smtp.url,
        ALERT_NOTICE_BACKOFF_BASE_MS: '100',
        CRM_PROPERTY_CACHE_MS: '0',
      },
    });
    await stack.startApp('alert-evaluator', 'second');
    portal = await stack.createPortal();
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await smtp?.close();
  });

  it('when an error crosses its threshold, is fixed, and the CRM token is revoked, then each change of state is one e-mail and one signed webhook, with no duplicate from two replicas', async () => {
    const api = consoleApi();
    const email = await api.post('/destinations', { kind: 'email', email: 'ops@shop.example' });
    const webhook = await api.post('/destinations', { kind: 'webhook', url: `${receiver.url}/alerts` });
    expect([email.status, webhook.status]).toEqual([201, 201]);
    secret = webhook.data.signingSecret;
    const rule = await api.post('/rules', {
      name: 'Invalid e-mails',
      condition: { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 0 },
    });
    expect(rule.status).toBe(201);
    const client = gatewayClient(stack, portal);

    // Crosses the threshold (0): one open INVALID_EMAIL_ADDRESS error.
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'alert-1', properties: { email: 'not-an-address' } })]));
    await waitFor(() => mailsAbout('Firing: Invalid e-mails').length >= 1 && webhooks().some((hook) => hook.body.state === 'firing'), {
      timeoutMs: 60_000,
      message: 'the firing e-mail and webhook',
    });
    const firing = webhooks().find((hook) => hook.body.state === 'firing')!;
    expect(firing.verified).toEqual({ ok: true });
    expect(firing.body).toMatchObject({
      rule: { id: rule.data.id, name: 'Invalid e-mails', kind: 'open-errors' },
      portalId: portal.portalId,
      value: 1,
      link: `${stack.gatewayUrl}/console/portals/${portal.portalId}/errors?errorType=INVALID_EMAIL_ADDRESS`,
    });
    expect(mailsAbout('Firing: Invalid e-mails')[0]).toContain('To: ops@shop.example');
    // Delivery is at least once: the notice's id keys both, for the receiver to drop a repeat.
    expect(firing.headers['idempotency-key']).toBe(`"${firing.body.noticeId}"`);
    // The e-mail is the same firing's notice to another destination (ids are rule:seq:destination).
    const [ruleId, seq] = firing.body.noticeId.split(':');
    expect(mailsAbout('Firing: Invalid e-mails')[0]).toMatch(new RegExp(`^Message-ID:\\s+<notice-${ruleId}_${seq}_[\\w-]+@localhost>`, 'm'));

    // Still firing over several evaluations (both replicas ticking): no storm.
    const evaluatedAt = async () =>
      ((await api.get('')).data.rules as { id: string; lastEvaluatedAt: number }[]).find((r) => r.id === rule.data.id)!.lastEvaluatedAt;
    const first = await evaluatedAt();
    await waitFor(async () => (await evaluatedAt()) >= first + 2_000, { timeoutMs: 30_000, message: 'four more evaluations of the rule' });
    expect(mailsAbout('Firing: Invalid e-mails')).toHaveLength(1);
    expect(webhooks().filter((hook) => hook.body.rule.id === rule.data.id)).toHaveLength(1);

    // Fixed: the object syncs with a valid address, its error resolves, one "resolved" notice each.
    await client.putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'alert-1', changedAt: String(Date.now()), properties: { email: 'ada@example.com' } })]),
    );
    await waitFor(() => mailsAbout('Resolved: Invalid e-mails').length >= 1 && webhooks().some((hook) => hook.body.state === 'resolved'), {
      timeoutMs: 60_000,
      message: 'the resolved e-mail and webhook',
    });
    const resolved = webhooks().filter((hook) => hook.body.state === 'resolved');
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ verified: { ok: true }, body: { value: 0, rule: { id: rule.data.id } } });
    expect(mailsAbout('Resolved: Invalid e-mails')).toHaveLength(1);

    // The CRM token revoked in the built-in CRM (replaced by another): the install's "CRM connection failing" rule fires.
    const revoked = await axios.put(
      `${stack.crmUrl}/crm/admin/v1/accounts/${portal.portalId}`,
      { token: `revoked-${Date.now()}-0123456789` },
      { headers: { authorization: `Bearer ${stack.adminToken}` } },
    );
    expect(revoked.status).toBe(200);
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'alert-2', properties: { email: 'grace@example.com' } })]));
    await waitFor(
      () => mailsAbout('Firing: CRM connection failing').length >= 1 && webhooks().some((hook) => hook.body.rule.name === 'CRM connection failing'),
      {
        timeoutMs: 60_000,
        message: 'the "CRM connection failing" e-mail and webhook',
      },
    );
    const failing = webhooks().filter((hook) => hook.body.rule.name === 'CRM connection failing');
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({ verified: { ok: true }, body: { state: 'firing', rule: { kind: 'crm-connection' } } });

    // No duplicate anywhere: each (rule, change of state) reached each destination once, although two evaluators ran.
    const ids = webhooks().map((hook) => hook.body.noticeId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(smtp.mails).toHaveLength(3);
    const notices = (await api.get('')).data.notices as { status: string }[];
    expect(notices.map((notice) => notice.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'sent']);
  });
});
