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

/** The one error the CRM's stores raise; the entry points turn its code into an HTTP status. */
export class CrmError extends Error {
  constructor(
    readonly code: CrmErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CrmError';
  }

  static invalidInput = (message: string) => new CrmError(CrmErrorCode.InvalidInput, message);
  static notFound = (message: string) => new CrmError(CrmErrorCode.NotFound, message);
  static conflict = (message: string) => new CrmError(CrmErrorCode.Conflict, message);
  static pipelineLimitReached = (message: string) => new CrmError(CrmErrorCode.PipelineLimitReached, message);
}
