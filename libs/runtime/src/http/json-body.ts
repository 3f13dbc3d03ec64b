import express, { type RequestHandler } from 'express';
import { AppError } from './app-error';

type Request = Parameters<RequestHandler>[0];

const hasBody = (req: Request) => req.header('transfer-encoding') !== undefined || Number(req.header('content-length') ?? 0) > 0;

const bodySizes = new WeakMap<Request, number>();

/** The bytes of the request's JSON body as parsed (after any content encoding); undefined when jsonBody did not read it. */
export const bodyBytesOf = (req: Request): number | undefined => bodySizes.get(req);

/**
 * JSON bodies only: 415 for another content type, 413 over `limit`, 400 for malformed JSON; the other
 * failures of the parser (encodings, charsets) are answered by the error handler (frameworkError).
 */
export function jsonBody(limit: string): RequestHandler[] {
  // verify sees the raw body before it is parsed: its size is known for free, chunked or not.
  const parse = express.json({ limit, strict: false, type: () => true, verify: (req, _res, buffer) => void bodySizes.set(req as Request, buffer.length) });
  return [
    (req, _res, next) => {
      if (!hasBody(req)) return next();
      const type = req.header('content-type') ?? '';
      if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
        return next(new AppError(415, `Content-Type must be application/json, got "${type || 'none'}"`));
      }
      next();
    },
    (req, res, next) =>
      parse(req, res, (error?: unknown) => {
        if (!error) return next();
        const failure = error as { type?: string; message?: string; limit?: number };
        if (failure.type === 'entity.too.large') return next(new AppError(413, `Request body is larger than ${limit}; send fewer messages per request`));
        if (failure.type === 'entity.parse.failed') return next(new AppError(400, `Request body is not valid JSON: ${failure.message}`));
        next(error);
      }),
  ];
}
