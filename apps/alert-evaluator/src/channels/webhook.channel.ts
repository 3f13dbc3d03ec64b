import { destinationUrl, sealedFor, type AlertDestination, type AlertNotice, type SecretBox } from '@ecomm-sync/data-access';
import { postJson, type ResolveHost } from '@ecomm-sync/runtime';
import type { NoticeAttempt, NoticeChannel } from '../use-cases/send-notice.use-case';

export interface HttpChannelOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolve?: ResolveHost;
}

/**
 * Delivery is at least once (decision 0053): a sender that delivered and died before recording it
 * sends the notice again. Every attempt at one notice carries its id as the key, for the receiver
 * to drop a repeat (the body's `noticeId` says the same). The IETF's Idempotency-Key header field
 * (draft-ietf-httpapi-idempotency-key-header) is a structured-field string (RFC 8941): the id in
 * double quotes, a quote or backslash in it escaped.
 */
export const idempotencyKey = (notice: Pick<AlertNotice, 'id'>) => ({ 'idempotency-key': `"${notice.id.replace(/["\\]/g, '\\$&')}"` });

const attemptOf = (attempt: Awaited<ReturnType<typeof postJson>>): NoticeAttempt =>
  attempt.ok ? { ok: true } : { ok: false, final: attempt.final, error: attempt.error };

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The destination's URL opened, or the failed attempt that says why not: a key rotated without the
 * old one kept opens it on no later attempt either, so the notice fails now.
 */
function openedUrl(secrets: SecretBox, destination: AlertDestination): { url: string } | NoticeAttempt {
  try {
    return { url: destinationUrl(secrets, destination) };
  } catch (error) {
    return { ok: false, final: true, error: `the ${destination.kind} destination's URL cannot be opened (${reasonOf(error)})` };
  }
}

/**
 * A signed webhook: the notice body as JSON, signed with the destination's own secret by the import
 * webhook's scheme (X-Crm-Signature v1, X-Crm-Signature-v3 with X-Crm-Request-Timestamp), to a
 * public unicast target only (decision 0026), with the notice's id as its Idempotency-Key.
 */
export class WebhookChannel implements NoticeChannel {
  constructor(
    private readonly secrets: SecretBox,
    private readonly options: HttpChannelOptions,
  ) {}

  async send(destination: AlertDestination, notice: AlertNotice): Promise<NoticeAttempt> {
    if (!destination.sealedSecret) return { ok: false, final: true, error: 'the webhook destination has no signing secret' };
    let secret: string;
    try {
      secret = this.secrets.open(destination.sealedSecret, sealedFor.alertDestinationSecret(destination.id));
    } catch (error) {
      // A key rotated without the old one kept: no later attempt can sign either, so the notice fails now.
      return { ok: false, final: true, error: `the webhook destination's signing secret cannot be opened (${reasonOf(error)})` };
    }
    const opened = openedUrl(this.secrets, destination);
    if (!('url' in opened)) return opened;
    return attemptOf(await postJson(opened.url, JSON.stringify(notice.body), { ...this.options, secret, headers: idempotencyKey(notice) }));
  }
}

/** A Slack-compatible incoming webhook: `{"text": …}` with the state, the rule, the figure and the console link. */
export class SlackChannel implements NoticeChannel {
  constructor(
    private readonly secrets: SecretBox,
    private readonly options: HttpChannelOptions,
  ) {}

  async send(destination: AlertDestination, notice: AlertNotice): Promise<NoticeAttempt> {
    const opened = openedUrl(this.secrets, destination);
    if (!('url' in opened)) return opened;
    return attemptOf(await postJson(opened.url, JSON.stringify(slackBody(notice)), { ...this.options, headers: idempotencyKey(notice) }));
  }
}

export function slackBody(notice: AlertNotice): { text: string } {
  const { body } = notice;
  const icon = body.state === 'firing' ? ':rotating_light:' : ':white_check_mark:';
  const where = `portal ${body.portalId}${body.appId ? `, application ${body.appId}` : ''}${body.storeId ? `, store ${body.storeId}` : ''}`;
  return { text: `${icon} ${body.state === 'firing' ? 'Firing' : 'Resolved'}: ${body.rule.name} (${where}): ${body.summary}. <${body.link}|Open the console>` };
}
