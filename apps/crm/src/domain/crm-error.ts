/** Why the built-in CRM refused an operation, independent of how it is answered (HTTP or other). */
export enum CrmErrorCode {
  /** The input does not fit the portal's setup (an unknown property, a value of the wrong type). */
  InvalidInput = 'INVALID_INPUT',
  /** An object, property or pipeline the operation names does not exist (for this portal). */
  NotFound = 'NOT_FOUND',
  /** The operation would take a name or unique value that another one already has. */
  Conflict = 'CONFLICT',
  /** The portal has as many deal pipelines as its account allows. */
  PipelineLimitReached = 'PIPELINE_LIMIT_REACHED',
}

/** One cause of a refusal, as the hosted CRM's `errors[]` item (the SDK's ErrorDetail) carries it. */
export interface CrmErrorDetail {
  message: string;
  /** The hosted CRM's code of the cause (PROPERTY_DOESNT_EXIST, INVALID_INTEGER, …). */
  code?: string;
  /** Which part of the request it is about (a property's name). */
  in?: string;
  context?: Record<string, string[]>;
}

/** What an error answer carries beside its message: its causes and the values they are about. */
export interface CrmErrorDetails {
  errors?: CrmErrorDetail[];
  context?: Record<string, string[]>;
}

/** The one error the CRM's stores raise; the entry points turn its code into an HTTP status. */
export class CrmError extends Error {
  constructor(
    readonly code: CrmErrorCode,
    message: string,
    readonly details: CrmErrorDetails = {},
  ) {
    super(message);
    this.name = 'CrmError';
  }

  static invalidInput = (message: string, details?: CrmErrorDetails) => new CrmError(CrmErrorCode.InvalidInput, message, details);
  static notFound = (message: string, details?: CrmErrorDetails) => new CrmError(CrmErrorCode.NotFound, message, details);
  static conflict = (message: string, details?: CrmErrorDetails) => new CrmError(CrmErrorCode.Conflict, message, details);
  static pipelineLimitReached = (message: string) => new CrmError(CrmErrorCode.PipelineLimitReached, message);
}
