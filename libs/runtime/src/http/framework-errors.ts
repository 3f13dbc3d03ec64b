import { AppError } from './app-error';

/** The fields of body-parser's http-errors that say what was wrong. */
interface BodyParserError {
  type?: string;
  limit?: number;
  encoding?: string;
  charset?: string;
}

/** What a client can do about each body-parser failure (the `type` of its http-errors). */
const BODY_PARSER: Record<string, (error: BodyParserError) => string> = {
  'entity.too.large': ({ limit }) => `Request body is larger than ${limit ?? 'the limit of'} bytes; send a smaller body`,
  'entity.parse.failed': () => 'Request body could not be parsed; check that it matches its Content-Type',
  'entity.verify.failed': () => 'Request body was refused',
  'encoding.unsupported': ({ encoding }) => `Content-Encoding${encoding ? ` "${encoding}"` : ''} is not supported; send identity, gzip, deflate or br`,
  'charset.unsupported': ({ charset }) => `The body charset${charset ? ` "${charset}"` : ''} is not supported; send utf-8`,
  'parameters.too.many': () => 'The form has too many parameters; send only the documented ones',
  'request.aborted': () => 'The request was aborted before its body was read',
  'request.size.invalid': () => 'The body length does not match Content-Length',
};

/**
 * Failures of the framework that are the request's fault, as the 4xx of the error model instead of
 * a 500: body-parser's errors (they carry a 4xx status and a `type`), a body that does not
 * decompress as its Content-Encoding says (zlib), and a path with a malformed percent-encoding
 * (URIError while decoding). Undefined for anything else.
 */
export function frameworkError(error: unknown): AppError | undefined {
  if (error instanceof URIError) return new AppError(400, 'The path has a malformed percent-encoding (such as %ZZ); encode reserved characters as %XX');
  if (!(error instanceof Error) || error instanceof AppError) return undefined;
  const { type, status, statusCode, code, expose } = error as Error &
    BodyParserError & { status?: number; statusCode?: number; code?: string; expose?: boolean };
  if (typeof code === 'string' && code.startsWith('Z_')) return new AppError(400, 'Request body could not be decompressed; check its Content-Encoding');
  // Only the framework's own http-errors (they say whether to expose them); a dependency's error
  // that happens to carry a status (a CRM's 404) is not the request's fault.
  if (typeof expose !== 'boolean') return undefined;
  const httpStatus = status ?? statusCode;
  if (typeof httpStatus !== 'number' || httpStatus < 400 || httpStatus >= 500) return undefined;
  const describe = type ? BODY_PARSER[type] : undefined;
  return new AppError(httpStatus, describe ? describe(error as BodyParserError) : 'The request could not be read; check its headers and body');
}
