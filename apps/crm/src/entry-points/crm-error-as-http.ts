import type { ErrorRequestHandler } from 'express';
import { AppError, frameworkError } from '@ecomm-sync/http';
import { CrmError, CrmErrorCode } from '../domain/crm-error';

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

/**
 * Hands a store's CrmError to the central error handler as the AppError of its code, and gives every
 * error answer of the hosted CRM's API (`/crm/v3`, `/crm/v4`) that API's fields beside ours:
 * `category` and `correlationId` (the request id), which its clients (its SDK among them) read.
 * An answer that has its own (the emulated 429) and the admin API's keep theirs.
 */
export const crmErrorAsHttp = (): ErrorRequestHandler => (error, req, res, next) => {
  const known = error instanceof CrmError ? new AppError(HTTP_STATUS_OF[error.code], error.message) : (frameworkError(error) ?? error);
  if (!(known instanceof AppError) || !/^\/crm\/v[34]\//.test(req.path) || 'correlationId' in known.fields) return next(known);
  const fields = { category: CATEGORY_OF[known.status] ?? 'INTERNAL_ERROR', correlationId: String(res.locals.requestId ?? ''), ...known.fields };
  next(new AppError(known.status, known.message, known.headers, fields));
};
