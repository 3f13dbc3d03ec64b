import { portalOfCrmAccount } from '@ecomm-sync/domain';
import type { CrmExchangeSink } from './crm-exchange';
import { currentSendingTenant } from './crm-exchange-scope';
import { objectsCarried } from './crm-exchange-objects';
import { loggedBaseUrl, parsedBody, redactedMessage, redactText } from './crm-exchange-redaction';

/** One try of a request as the transport saw it. */
export interface CrmAttempt {
  startedAt: number;
  durationMs: number;
  attempt: number;
  method: string;
  path: string;
  requestHeaders: Record<string, string | undefined>;
  requestBody: unknown;
  /** Absent when there was no answer. */
  answer?: { status: number; headers: Record<string, string | undefined>; body: unknown };
  /** Why there was no answer. */
  error?: string;
}

export interface CrmExchangeRecorderOptions {
  sink: CrmExchangeSink;
  baseUrl: string;
  account: string;
  /** The connection's portal; else the one its account key names (none for an OAuth app's key of before, shared by portals). */
  portalId?: number;
  /** Values that must never be kept, wherever they appear (the connection's token). */
  secrets: readonly string[];
}

const correlationIdOf = (headers: Record<string, string | undefined>, body: unknown): string | null => {
  const inBody = (body as { correlationId?: unknown } | null | undefined)?.correlationId;
  if (typeof inBody === 'string' && inBody !== '') return inBody;
  return headers['x-hubspot-correlation-id'] ?? headers['x-correlation-id'] ?? headers['x-request-id'] ?? null;
};

/** Turns a transport's attempts into request-log exchanges for its sink; a record that cannot be made is dropped, the request goes on. */
export class CrmExchangeRecorder {
  private readonly baseUrl: string;
  private readonly portalId: number | null;

  constructor(private readonly options: CrmExchangeRecorderOptions) {
    this.baseUrl = loggedBaseUrl(options.baseUrl);
    this.portalId = options.portalId ?? portalOfCrmAccount(options.account);
  }

  record(attempt: CrmAttempt): void {
    try {
      const { secrets } = this.options;
      const request = parsedBody(attempt.requestBody);
      const answer = attempt.answer;
      const answerBody = answer ? parsedBody(answer.body) : undefined;
      const status = answer?.status ?? null;
      const tenant = currentSendingTenant();
      this.options.sink.record({
        at: new Date(attempt.startedAt),
        portalId: this.portalId,
        // Only a tenant of this connection's portal: work of another portal never sends through it.
        ...(tenant && tenant.portalId === this.portalId ? { appId: tenant.appId } : {}),
        account: this.options.account,
        baseUrl: this.baseUrl,
        method: attempt.method.toUpperCase(),
        path: redactText(attempt.path, secrets),
        attempt: attempt.attempt,
        objects: objectsCarried(attempt.path, request, answerBody),
        status,
        failed: status === null || status >= 400 || status === 207,
        durationMs: Math.round(attempt.durationMs * 10) / 10,
        correlationId: answer ? correlationIdOf(answer.headers, answerBody) : null,
        error: attempt.error ?? null,
        // The bodies as they came (text, or an answer with its text): kept as they were when they name no secret.
        request: redactedMessage(attempt.requestHeaders, attempt.requestBody, secrets),
        answer: answer ? redactedMessage(answer.headers, answer.body, secrets) : { headers: {}, body: null, bytes: 0, truncated: false },
      });
    } catch {
      // The log is a witness, not the work: a record it cannot make is dropped.
    }
  }
}
