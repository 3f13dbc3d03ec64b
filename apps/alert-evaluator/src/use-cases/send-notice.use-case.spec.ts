import type { AlertDestination, AlertNotice } from '@ecomm-sync/data-access';
import { PoisonMessageError } from '@ecomm-sync/messaging';
import { AlertStoreFixture } from './alert-store-fixture';
import { EvaluateAlertsUseCase } from './evaluate-alerts.use-case';
import { SendNoticeUseCase, type NoticeAttempt, type NoticeChannel } from './send-notice.use-case';

/** A channel that answers from a script and records what it was asked to send. */
class ScriptedChannel implements NoticeChannel {
  readonly sent: string[] = [];
  constructor(private readonly answers: NoticeAttempt[] = []) {}
  async send(_destination: AlertDestination, notice: AlertNotice): Promise<NoticeAttempt> {
    this.sent.push(notice.id);
    return this.answers.shift() ?? { ok: true };
  }
}

describe('SendNoticeUseCase', () => {
  let store: AlertStoreFixture;
  let noticeId: string;

  beforeEach(async () => {
    store = new AlertStoreFixture();
    store.addDestination('webhook', 'https://hooks.shop.example/alerts');
    store.addRule({ kind: 'import-failed' }, { appId: null });
    store.counters.failedImports = 1;
    await new EvaluateAlertsUseCase(store.evaluatorPorts(), { intervalMs: 60_000, batchSize: 10, consoleUrl: '' }).run();
    [noticeId] = store.queued;
  });

  const sender = (webhook: NoticeChannel, maxAttempts = 3) =>
    new SendNoticeUseCase(store.senderPorts({ webhook, slack: new ScriptedChannel(), email: new ScriptedChannel() }), {
      maxAttempts,
      backoffBaseMs: 1,
      leaseMs: 60_000,
    });

  it('when a notice is delivered then it is sent once, and the same notice queued again is not sent again', async () => {
    const channel = new ScriptedChannel();

    expect(await sender(channel).send(noticeId)).toBe('sent');
    expect(await sender(channel).send(noticeId)).toBe('skipped');

    expect(channel.sent).toEqual([noticeId]);
    expect(store.notices.get(noticeId)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
  });

  it('when the receiver fails twice then succeeds then the notice is sent with three attempts recorded', async () => {
    const channel = new ScriptedChannel([
      { ok: false, final: false, error: 'answered 503' },
      { ok: false, final: false, error: 'ECONNRESET' },
    ]);

    expect(await sender(channel).send(noticeId)).toBe('sent');

    expect(store.notices.get(noticeId)).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('when every attempt fails then the notice is marked failed with its reason and the message is dead-lettered', async () => {
    const channel = new ScriptedChannel([
      { ok: false, final: false, error: 'answered 500' },
      { ok: false, final: false, error: 'answered 502' },
      { ok: false, final: false, error: 'answered 503' },
    ]);

    const sent = sender(channel).send(noticeId);

    await expect(sent).rejects.toBeInstanceOf(PoisonMessageError);
    expect(store.notices.get(noticeId)).toMatchObject({ status: 'failed', attempts: 3, lastError: expect.stringContaining('answered 503 after 3 attempts') });
  });

  it('when the receiver refuses for good then it is not tried again, and a redrive later sends it', async () => {
    await expect(sender(new ScriptedChannel([{ ok: false, final: true, error: 'answered 410' }])).send(noticeId)).rejects.toThrow('after 1 attempt');

    expect(await sender(new ScriptedChannel()).send(noticeId)).toBe('sent');
    expect(store.notices.get(noticeId)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('when another replica holds the notice then this one leaves it alone', async () => {
    const holder = store.senderPorts({ webhook: new ScriptedChannel(), slack: new ScriptedChannel(), email: new ScriptedChannel() });
    await holder.notices.take(noticeId, store.now, store.now + 60_000);
    const channel = new ScriptedChannel();

    expect(await sender(channel).send(noticeId)).toBe('skipped');
    expect(channel.sent).toEqual([]);
  });
});
