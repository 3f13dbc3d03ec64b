import type { ErrorRequestHandler } from 'express';
import { AppError, frameworkError } from '@ecomm-sync/runtime';
import { CrmError, CrmErrorCode, type CrmErrorDetails } from '../domain/crm-error';

/** The HTTP status each refusal of the stores is answered with. */
export const HTTP_STATUS_OF: Record<CrmErrorCode, number> = {
  [CrmErrorCode.InvalidInput]: 400,
  [CrmErrorCode.NotFound]: 404,
  [CrmErrorCode.Conflict]: 409,
  [CrmErrorCode.PipelineLimitReached]: 400,
};

/** The hosted CRM's `category` of an error answer, by its status. */
const CATEGORY_OF: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'INVALID_AUTHENTICATION',
  403: 'MISSING_SCOPES',
  404: 'OBJECT_NOT_FOUND',
  409: 'CONFLICT',
  413: 'VALIDATION_ERROR',
  415: 'VALIDATION_ERROR',
  429: 'RATE_LIMITS',
};

/** The body fields the hosted CRM's error answers carry beside `status` and `message` (the SDK's ModelError). */
function hostedErrorFields(error: AppError, details: CrmErrorDetails, requestId: string): Record<string, unknown> {
  const errors = details.errors ?? [{ message: error.message }];
  return {
    category: CATEGORY_OF[error.status] ?? 'INTERNAL_ERROR',
    correlationId: requestId,
    errors,
    context: details.context ?? {},
    ...error.fields,
  };
}

/**
 * Hands a store's CrmError to the central error handler as the AppError of its code, and gives every
 * error answer of the hosted CRM's API (`/crm/v3`, `/crm/v4`) that API's fields beside ours:
 * `category`, `correlationId` (the request id), `errors[]` (each cause, with its code and the
 * property it is about where known; else the message once) and `context`, which its clients (its
 * SDK among them) read. An answer that has its own (the emulated 429) and the admin API's keep theirs.
 */
export const crmErrorAsHttp = (): ErrorRequestHandler => (error, req, res, next) => {
  const known = error instanceof CrmError ? new AppError(HTTP_STATUS_OF[error.code], error.message) : (frameworkError(error) ?? error);
  if (!(known instanceof AppError) || !/^\/crm\/v[34]\//.test(req.path) || 'correlationId' in known.fields) return next(known);
  const details = error instanceof CrmError ? error.details : {};
  next(new AppError(known.status, known.message, known.headers, hostedErrorFields(known, details, String(res.locals.requestId ?? ''))));
};
