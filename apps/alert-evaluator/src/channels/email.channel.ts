import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertDestination, AlertNotice } from '@ecomm-sync/data-access';
import type { NoticeAttempt, NoticeChannel } from '../use-cases/send-notice.use-case';

export interface EmailChannelOptions {
  /** smtp://user:password@host:port or smtps://…; undefined: e-mail is not configured. */
  smtpUrl: string | undefined;
  from: string;
  timeoutMs: number;
}

/** The subject and text of a notice's e-mail. */
export function emailOf(notice: AlertNotice): { subject: string; text: string } {
  const { body } = notice;
  const state = body.state === 'firing' ? 'Firing' : 'Resolved';
  const where = `Portal ${body.portalId}${body.appId ? `, application ${body.appId}` : ''}${body.storeId ? `, store ${body.storeId}` : ''}`;
  return {
    subject: `[ecomm-sync] ${state}: ${body.rule.name} (portal ${body.portalId})`,
    text: `${state}: ${body.rule.name}\n${where}\n\n${body.summary}\nValue: ${body.value}\nAt: ${new Date(body.at).toISOString()}\n\nOpen the console: ${body.link}\n\nNotice ${body.noticeId}\n`,
  };
}

/**
 * The Message-ID of a notice's e-mail: its id at the sender's domain (the `from` address's, or
 * ecomm-sync.invalid); characters a Message-ID may not hold (the id's colons) become `_`.
 */
export function noticeMessageId(notice: AlertNotice, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'ecomm-sync.invalid';
  return `<notice-${notice.id.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~-]/g, '_')}@${domain}>`;
}

/**
 * E-mail through the operator's SMTP server (nodemailer, decision 0053). A 5xx answer of the server
 * is permanent (not tried again); a 4xx, a timeout or no connection is tried again.
 */
export class EmailChannel implements NoticeChannel {
  private readonly transport: Transporter | null;

  constructor(private readonly options: EmailChannelOptions) {
    this.transport = options.smtpUrl
      ? nodemailer.createTransport({
          url: options.smtpUrl,
          connectionTimeout: options.timeoutMs,
          greetingTimeout: options.timeoutMs,
          socketTimeout: options.timeoutMs,
        })
      : null;
  }

  async send(destination: AlertDestination, notice: AlertNotice): Promise<NoticeAttempt> {
    if (!this.transport) return { ok: false, final: true, error: 'no SMTP server is configured (ALERT_SMTP_URL)' };
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: destination.target,
        ...emailOf(notice),
        // One Message-ID per notice: a notice sent twice (delivery is at least once) is one message to the mail system.
        messageId: noticeMessageId(notice, this.options.from),
        headers: { 'X-Ecomm-Sync-Notice': notice.id },
      });
      return { ok: true };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, final: code !== undefined && code >= 500, error: code ? `the SMTP server answered ${code}: ${message}` : message };
    }
  }

  close(): void {
    this.transport?.close();
  }
}
