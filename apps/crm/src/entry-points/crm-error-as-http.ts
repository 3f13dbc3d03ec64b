import type { ErrorRequestHandler } from 'express';
import { AppError } from '@ecomm-sync/http';
import { CrmError, CrmErrorCode } from '../domain/crm-error';

/** The HTTP status each refusal of the stores is answered with. */
export const HTTP_STATUS_OF: Record<CrmErrorCode, number> = {
  [CrmErrorCode.InvalidInput]: 400,
  [CrmErrorCode.NotFound]: 404,
  [CrmErrorCode.Conflict]: 409,
  [CrmErrorCode.PipelineLimitReached]: 400,
};

/** Hands a store's CrmError to the central error handler as the AppError of its code. */
export const crmErrorAsHttp = (): ErrorRequestHandler => (error, _req, _res, next) =>
  next(error instanceof CrmError ? new AppError(HTTP_STATUS_OF[error.code], error.message) : error);
