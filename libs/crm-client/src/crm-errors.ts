import { type AxiosError, type AxiosRequestConfig, isAxiosError } from 'axios';
import type { CrmInputFailure, CrmObject } from './crm-port';

/** A CRM answer that is not a success after retries: `status` is the HTTP status (0: no answer). */
export class CrmRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The CRM's own words for the kind of failure (VALIDATION_ERROR, OBJECT_NOT_FOUND, …). */
    readonly category?: string,
    /** The CRM's id of the failed request: what its support asks for. */
    readonly correlationId?: string,
  ) {
    super(message);
    this.name = 'CrmRequestError';
  }

  /**
   * Whether trying again can succeed: no answer, 429 (limits), 5xx, 423 (the record is locked by
   * another write: the vendor says wait at least 2 s) and 477 (the account is being migrated).
   */
  get retriable(): boolean {
    return this.status === 0 || this.status === 429 || this.status === 423 || this.status === 477 || this.status >= 500;
  }

  /**
   * Whether the CRM refused the connection rather than the request: 401 (a revoked, rotated or
   * expired token: the OAuth client has renewed it once by then; or a refresh the token endpoint
   * refused, OAuthAccessTokens) or 403 (a scope the token lacks). Every request of the portal is
   * refused alike until a person mends the connection.
   */
  get refusesCredentials(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

export type CrmUnavailableReason = 'rate-limited' | 'daily-cap' | 'unreachable';

/**
 * The CRM cannot take the request within the client's `maxWaitMs`: rate-limited or out of its daily
 * cap (by its answers or by the shared budget), or not answering / answering 5xx. Retriable: the
 * caller parks the work until `until` (when known) instead of failing it.
 */
export class CrmUnavailableError extends CrmRequestError {
  constructor(
    message: string,
    status: number,
    readonly reason: CrmUnavailableReason,
    /** When to try again (epoch ms), if known. */
    readonly until: number | null,
    /** Status and message of the CRM's last answer ('no answer: …' when there was none). */
    readonly lastAnswer: string,
  ) {
    super(message, status);
    this.name = 'CrmUnavailableError';
  }
}

/**
 * A batch write the CRM answered 207 (multi-status): `results` holds the objects it wrote, `failures`
 * the inputs it refused (index into the inputs the caller passed, -1 when the CRM did not say which).
 * Not retriable: the refused inputs fail on their merits.
 */
export class CrmPartialFailure extends CrmRequestError {
  constructor(
    message: string,
    readonly results: CrmObject[],
    readonly failures: CrmInputFailure[],
  ) {
    super(message, 207, 'PARTIAL_FAILURE');
    this.name = 'CrmPartialFailure';
  }
}

/**
 * Why a request got no answer, in words without the host or address it tried (customers read it
 * in the CRM health and error records; an internal address is not theirs to see).
 */
const NO_ANSWER: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  ECONNABORTED: 'timed out',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  EPIPE: 'the connection was closed',
  ERR_FR_MAX_BODY_LENGTH_EXCEEDED: 'the answer was too long',
};

/** What a failed request's answer said, or why there was none, without the host it tried. */
export function crmErrorReason(error: AxiosError): string {
  const body = error.response?.data as { message?: string } | undefined;
  if (body?.message) return body.message;
  if (error.response) return /maxContentLength/.test(error.message) ? 'the answer was too long' : `answered ${error.response.status}`;
  if (/maxContentLength/.test(error.message)) return 'the answer was too long';
  return NO_ANSWER[error.code ?? ''] ?? `no answer (${error.code ?? 'network error'})`;
}

/** The error of a failed request: its HTTP status (0: no answer) and the CRM's message and category. */
export function toCrmError(error: unknown, config: AxiosRequestConfig): CrmRequestError {
  if (!isAxiosError(error)) return new CrmRequestError(String(error), 0);
  const status = error.response?.status ?? 0;
  const body = error.response?.data as { message?: string; category?: string; correlationId?: string } | undefined;
  const reason = crmErrorReason(error);
  const correlation = body?.correlationId ? ` (correlation id ${body.correlationId})` : '';
  return new CrmRequestError(
    `CRM ${config.method} ${config.url} failed (${status || 'no answer'}): ${reason}${correlation}`,
    status,
    body?.category,
    body?.correlationId,
  );
}

/** A batch write's answer as far as failures go (a 207 lists the refused inputs in `errors`). */
export interface BatchAnswer {
  results?: { id: string; properties: Record<string, string | null> }[];
  errors?: { message?: string; category?: string; context?: Record<string, unknown> }[];
}

const contextValues = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined || value === null ? [] : [String(value)]);

/** The inputs a 207's errors name: by objectWriteTraceId (the input's index), else by the ids in their context. */
export function failedInputs(errors: NonNullable<BatchAnswer['errors']>, ids: (string | null)[], from: number): CrmInputFailure[] {
  return errors.flatMap((error) => {
    const message = error.message ?? 'refused by the CRM';
    const category = error.category;
    const traced = contextValues(error.context?.objectWriteTraceId)
      .map(Number)
      .filter((index) => Number.isInteger(index) && index >= from && index < from + ids.length);
    const named =
      traced.length > 0
        ? traced
        : [...contextValues(error.context?.ids), ...contextValues(error.context?.id)]
            .map((id) => ids.indexOf(id))
            .filter((i) => i >= 0)
            .map((i) => from + i);
    return (named.length > 0 ? named : [-1]).map((index) => ({ index, message, ...(category ? { category } : {}) }));
  });
}

type RefusedPair = { message?: string; category?: string; correlationId?: string };

/** The pairs an association batch refused (a 207, or `errors` in a 200), as one refusal that is not retriable. */
export function pairsRefused(what: string, status: number, errors: readonly RefusedPair[], pairs: number, correlationId?: string): CrmRequestError {
  const [first] = errors;
  return new CrmRequestError(
    `${what} refused ${errors.length} of ${pairs} pairs (${status}): ${first.message ?? 'no reason given'}`,
    status,
    first.category,
    first.correlationId ?? correlationId,
  );
}

/**
 * The vendor's SDK reads an answer its model does not list as its ApiException (the association
 * batch's 207: its body parsed as the SDK's error model, whose `errors` keep each refusal's
 * message): that answer as a CrmRequestError of its status; null for a success that lists no
 * refusal (nothing went wrong). Anything else is thrown as it is.
 */
export function sdkRefusal(error: unknown, what: string, pairs: number): unknown {
  const exception = error as { code?: unknown; body?: { message?: string; category?: string; correlationId?: string; errors?: RefusedPair[] } };
  if (error instanceof CrmRequestError || typeof exception.code !== 'number') return error;
  const body = exception.body ?? {};
  if (exception.code >= 200 && exception.code < 300 && !body.errors?.length) return null;
  const errors = body.errors?.length ? body.errors : [{ message: body.message, category: body.category, correlationId: body.correlationId }];
  return pairsRefused(what, exception.code, errors, pairs, body.correlationId);
}
