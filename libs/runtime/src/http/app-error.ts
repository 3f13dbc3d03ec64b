/**
 * The one error model of every process: an HTTP status and a message that says what is wrong
 * and how to fix it. Anything else reaching the error handler is a defect (a 500, logged).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Extra fields of the error body (OAuth's `error` code, the CRM's `errors[]`); never `status`, `message` or `requestId`. */
    readonly fields: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest = (message: string) => new AppError(400, message);
  static unauthorized = (message: string) => new AppError(401, message);
  static forbidden = (message: string) => new AppError(403, message);
  static notFound = (message: string) => new AppError(404, message);
  static conflict = (message: string) => new AppError(409, message);
  static unavailable = (message: string) => new AppError(503, message, { 'retry-after': '1' });
}
