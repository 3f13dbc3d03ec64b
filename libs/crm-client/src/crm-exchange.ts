/**
 * One request the service sent to a CRM and what came back (decision 0051): one per attempt, so a
 * 429 and the 200 of its retry are two exchanges. Bodies and headers are redacted and bounded
 * before they are kept (crm-exchange-redaction.ts).
 */
export interface CrmExchange {
  /** When the attempt was sent. */
  at: Date;
  /** The portal whose connection sent it; null when the connection does not name one (an OAuth app's account). */
  portalId: number | null;
  /** The CRM account whose budget it counted against (crmAccountKey). */
  account: string;
  /** The connection's base URL, without credentials or query. */
  baseUrl: string;
  method: string;
  /** The path under the base URL, query secrets redacted. */
  path: string;
  /** 1 for the first try of a request, 2 for its first retry, … */
  attempt: number;
  /** The objects it carried, as `TYPE:key:<sync key>` and `TYPE:crm:<CRM id>` (crm-exchange-objects.ts). */
  objects: string[];
  /** The answer's status; null when there was none (timeout, refused connection). */
  status: number | null;
  /** No answer, a 4xx or 5xx, or a 207 that refused some inputs. */
  failed: boolean;
  durationMs: number;
  /** The CRM's id of the answer, for its support (body `correlationId`, else its correlation header). */
  correlationId: string | null;
  /** Why there was no answer. */
  error: string | null;
  request: CrmExchangeMessage;
  answer: CrmExchangeMessage;
}

/** A request or an answer as kept: redacted headers, and the body as redacted text cut at the bound. */
export interface CrmExchangeMessage {
  headers: Record<string, string>;
  body: string | null;
  /** Bytes of the redacted body before it was cut. */
  bytes: number;
  /** True when `body` was cut at the bound. */
  truncated: boolean;
}

/**
 * Where a CRM client hands its exchanges. `record` must return at once and never throw: the
 * request it describes is the work, the record is not (CrmRequestLog buffers them).
 */
export interface CrmExchangeSink {
  record(exchange: CrmExchange): void;
}

/** The key under which an exchange is found for an object: its sync key or its CRM id, by type. */
export const crmObjectKey = (objectType: string, kind: 'key' | 'crm', value: string | number): string => `${objectType}:${kind}:${value}`;
