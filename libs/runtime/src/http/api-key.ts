import type { Request } from 'express';

/**
 * The header that carries an API key (a portal's or a developer's) as the `hapikey` query parameter
 * does: the console sends it there, so that the key is not in URLs, which proxies and access logs
 * keep. Clients of the original API go on sending `hapikey`.
 */
export const API_KEY_HEADER = 'x-api-key';

/** The API key a request presents: `hapikey` in the query (the API's own way), else the X-Api-Key header. */
export function presentedApiKey(req: Request): string | undefined {
  const query = req.query.hapikey;
  if (typeof query === 'string' && query !== '') return query;
  const header = req.header(API_KEY_HEADER);
  return header ? header : undefined;
}
