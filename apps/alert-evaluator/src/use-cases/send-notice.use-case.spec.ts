import type { AlertDestination, AlertNotice } from '@ecomm-sync/data-access';
import { PoisonMessageError } from '@ecomm-sync/messaging';
import { aNewAlertNotice, aTenant, FakeAlertDestinationRepository, FakeAlertNoticeRepository, recordingLogger } from '@ecomm-sync/testing';
import { SendNoticeUseCase, type NoticeAttempt, type NoticeChannel } from './send-notice.use-case';

const NOW = 1_700_000_000_000;

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
  let notices: FakeAlertNoticeRepository;
  let destinations: FakeAlertDestinationRepository;
  let noticeId: string;

  beforeEach(async () => {
    const tenant = aTenant();
    notices = new FakeAlertNoticeRepository();
    destinations = new FakeAlertDestinationRepository();
    const destination = await destinations.add(
      tenant,
      // Its URL sealed (the channels, scripted here, open it), beside how it reads.
      { kind: 'webhook', target: 'v2.key.sealed-url', shownTarget: 'https://hooks.shop.example/…erts', label: '', sealedSecret: 'sealed' },
      NOW,
    );
    [noticeId] = await notices.store([aNewAlertNotice(tenant, { destinationId: destination.id, createdAt: NOW })]);
  });

  const sender = (webhook: NoticeChannel, maxAttempts = 3) =>
    new SendNoticeUseCase(
      {
        notices,
        destinations,
        channels: { webhook, slack: new ScriptedChannel(), email: new ScriptedChannel() },
        clock: () => NOW,
        logger: recordingLogger().logger,
        sleep: async () => undefined,
      },
      {
        maxAttempts,
        backoffBaseMs: 1,
        leaseMs: 60_000,
      },
    );

  it('when a notice is delivered then it is sent once, and the same notice queued again is not sent again', async () => {
    const channel = new ScriptedChannel();

    expect(await sender(channel).send(noticeId)).toBe('sent');
    expect(await sender(channel).send(noticeId)).toBe('skipped');

    expect(channel.sent).toEqual([noticeId]);
    expect(await notices.find(noticeId)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
  });

  it('when the receiver fails twice then succeeds then the notice is sent with three attempts recorded', async () => {
    const channel = new ScriptedChannel([
      { ok: false, final: false, error: 'answered 503' },
      { ok: false, final: false, error: 'ECONNRESET' },
    ]);

    expect(await sender(channel).send(noticeId)).toBe('sent');

    expect(await notices.find(noticeId)).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it.each([
    ['its clock shows the lease ended', NOW + 60_001, [1]],
    ['its clock is behind the one that took it over', NOW, [1, 1]],
  ])(
    'when another sender takes the notice over while this one waits to retry and %s, then this one stops, writes nothing more and does not fail the message',
    async (_case, clockAfterBackoff, sends) => {
      let now = NOW;
      const channel = new ScriptedChannel([{ ok: false, final: false, error: 'answered 503' }]);
      const late = new SendNoticeUseCase(
        {
          notices,
          destinations,
          channels: { webhook: channel, slack: new ScriptedChannel(), email: new ScriptedChannel() },
          clock: () => now,
          logger: recordingLogger().logger,
          // This sender's backoff outlasts its lease: meanwhile another one takes the notice over.
          sleep: async () => {
            await notices.take(noticeId, NOW + 60_001, NOW + 120_000);
            now = clockAfterBackoff;
          },
        },
        { maxAttempts: 3, backoffBaseMs: 1, leaseMs: 60_000 },
      );

      expect(await late.send(noticeId)).toBe('skipped');

      expect(channel.sent).toEqual(sends.map(() => noticeId));
      expect(await notices.find(noticeId)).toMatchObject({ status: 'sending', leaseUntil: NOW + 120_000, attempts: 1, lastError: 'answered 503' });
    },
  );

  it('when every attempt fails then the notice is marked failed with its reason and the message is dead-lettered', async () => {
    const channel = new ScriptedChannel([
      { ok: false, final: false, error: 'answered 500' },
      { ok: false, final: false, error: 'answered 502' },
      { ok: false, final: false, error: 'answered 503' },
    ]);

    const sent = sender(channel).send(noticeId);

    await expect(sent).rejects.toBeInstanceOf(PoisonMessageError);
    expect(await notices.find(noticeId)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'webhook https://hooks.shop.example/…erts: answered 503 after 3 attempts',
    });
  });

  it('when the receiver refuses for good then it is not tried again, and a redrive later sends it', async () => {
    await expect(sender(new ScriptedChannel([{ ok: false, final: true, error: 'answered 410' }])).send(noticeId)).rejects.toThrow('after 1 attempt');

    expect(await sender(new ScriptedChannel()).send(noticeId)).toBe('sent');
    expect(await notices.find(noticeId)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('when another replica holds the notice then this one leaves it alone', async () => {
    await notices.take(noticeId, NOW, NOW + 60_000);
    const channel = new ScriptedChannel();

    expect(await sender(channel).send(noticeId)).toBe('skipped');
    expect(channel.sent).toEqual([]);
  });
});
