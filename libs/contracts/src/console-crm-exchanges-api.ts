/** The CRM request log in the console (decision 0051). */

/** A request or an answer as the log keeps it: secrets replaced by "[redacted]", the body cut at 16 KB. */
export interface ConsoleCrmExchangeMessage {
  headers: Record<string, string>;
  /** The body as text (JSON for the CRM's API); null: none. */
  body: string | null;
  /** Its size before it was cut. */
  bytes: number;
  truncated: boolean;
}

/** One attempt of a request the service sent to a CRM, and the answer. */
export interface ConsoleCrmExchange {
  id: string;
  /** When it was sent (epoch ms). */
  at: number;
  portalId: number | null;
  /**
   * The tenant whose work sent it: an application's id, null for the portal's own. Absent when the
   * request was not sent for one tenant's objects (an install's set-up), or before 2026-12-06.
   */
  appId?: string | null;
  /** The CRM account (its request budget's key). */
  account: string;
  /** The CRM connection's base URL. */
  baseUrl: string;
  method: string;
  path: string;
  /** 1: the first try; more: a retry (after a 429, 5xx or no answer). */
  attempt: number;
  /** The objects it carried: `TYPE:key:<sync key>`, `TYPE:crm:<CRM id>`. */
  objects: string[];
  /** null: no answer. */
  status: number | null;
  /** No answer, 4xx, 5xx, or a 207 that refused some inputs. */
  failed: boolean;
  durationMs: number;
  /** The CRM's id of the answer, for its support. */
  correlationId: string | null;
  /** Why there was no answer. */
  error: string | null;
  request: ConsoleCrmExchangeMessage;
  answer: ConsoleCrmExchangeMessage;
}

/** GET /console/api/v1/objects/crm-exchanges and GET /console/api/v1/ops/crm-exchanges/failed: newest first. */
export interface ConsoleCrmExchanges {
  limit: number;
  results: ConsoleCrmExchange[];
}
