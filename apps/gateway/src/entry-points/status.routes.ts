import { Router, type Request, type Response } from 'express';
import { DEFAULT_STORE_ID, type Tenant } from '@ecomm-sync/contracts';
import type { ErrorQuery } from '@ecomm-sync/data-access';

import type { ReadSyncStatusUseCase } from '../use-cases/read-sync-status.use-case';
import { toV1ErrorRecord, toV2ErrorRecord } from '../use-cases/read-sync-status.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { booleanParam, integerParam, objectIdParam, objectTypeParam, optionalErrorType, optionalObjectType } from './query-params';

export const MAX_ERRORS_PER_PAGE = 200;

/**
 * The link to the next page, from the configured public URL only: nothing a request says (its Host,
 * X-Forwarded-Proto or -Host) ever comes back in an answer. Without one, the link is relative.
 */
function nextPageLink(req: Request, page: number, publicUrl?: string): string {
  // Only the path and query of the request (a placeholder origin parses them), after the public URL and its own path.
  const url = new URL(req.originalUrl, 'http://request.invalid');
  url.searchParams.set('page', String(page));
  url.searchParams.delete('hapikey');
  return `${publicUrl?.replace(/\/+$/, '') ?? ''}${url.pathname}${url.search}`;
}

type ErrorScope = Pick<ErrorQuery, 'portalId' | 'portalIds' | 'appId'>;

/** v2 listing: `page` is a 1-based record offset; the next page is page + limit (vendor-api-notes.md). */
async function listV2(readSyncStatus: ReadSyncStatusUseCase, req: Request, res: Response, scope: ErrorScope, publicUrl?: string) {
  const limit = integerParam(req.query, 'limit', MAX_ERRORS_PER_PAGE, 1, MAX_ERRORS_PER_PAGE);
  const page = integerParam(req.query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  const { errors, hasMore } = await readSyncStatus.listErrors({
    ...scope,
    includeResolved: booleanParam(req.query, 'includeResolved', false),
    errorType: optionalErrorType(req.query),
    objectType: optionalObjectType(req.query),
    limit,
    offset: page - 1,
  });
  res.json({
    results: errors.map(toV2ErrorRecord),
    ...(hasMore ? { paging: { next: { page: String(page + limit), link: nextPageLink(req, page + limit, publicUrl) } } } : {}),
  });
}

/** A v1 listing's page: `limit` (at most 200, the default) and `offset`. */
const pageParams = (req: Request) => ({
  limit: integerParam(req.query, 'limit', MAX_ERRORS_PER_PAGE, 1, MAX_ERRORS_PER_PAGE),
  offset: integerParam(req.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
});

/** v1 listing: `limit` and `offset`, `showResolvedErrors`. */
async function listV1(readSyncStatus: ReadSyncStatusUseCase, req: Request, res: Response, scope: ErrorScope) {
  const { errors } = await readSyncStatus.listErrors({
    ...scope,
    includeResolved: booleanParam(req.query, 'showResolvedErrors', false),
    errorType: optionalErrorType(req.query),
    objectType: optionalObjectType(req.query),
    ...pageParams(req),
  });
  res.json({ results: errors.map(toV1ErrorRecord) });
}

/** Per-object sync status and error listings, v1 and v2, each with the credential SPEC.md names. */
export function statusRoutes(readSyncStatus: ReadSyncStatusUseCase, auth: Authorizer, { publicUrl }: { publicUrl?: string } = {}): Router {
  const router = Router();
  const listV2Bound = (req: Request, res: Response, scope: ErrorScope) => listV2(readSyncStatus, req, res, scope, publicUrl);
  const customerData = auth.require(auth.customerData);
  const portalAccount = auth.require(auth.portalAccount);

  router.get('/extensions/ecomm/v1/sync-status/:objectType/:integratorObjectId', ...customerData, async (req, res) => {
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const id = objectIdParam(req.params.integratorObjectId, 'integratorObjectId');
    res.json(await readSyncStatus.v1Status(grantOf<Tenant>(res), objectType, id));
  });

  router.get('/extensions/ecomm/v2/sync/status/:storeId/:objectType/:externalObjectId', ...customerData, async (req, res) => {
    const storeId = objectIdParam(req.params.storeId, 'storeId');
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const id = objectIdParam(req.params.externalObjectId, 'externalObjectId');
    res.json(await readSyncStatus.v2Status({ tenant: grantOf<Tenant>(res), storeId, objectType }, id));
  });

  router.get('/extensions/ecomm/v1/sync-errors/object/:objectType/:integratorObjectId', ...customerData, async (req, res) => {
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const id = objectIdParam(req.params.integratorObjectId, 'integratorObjectId');
    const errors = await readSyncStatus.objectErrors(
      { ...grantOf<Tenant>(res), storeId: DEFAULT_STORE_ID, objectType, externalObjectId: id },
      booleanParam(req.query, 'showResolvedErrors', false),
      pageParams(req),
    );
    res.json({ results: errors.map(toV1ErrorRecord) });
  });

  router.get('/extensions/ecomm/v1/sync-errors', ...auth.require(auth.v1ErrorScope), (req, res) => listV1(readSyncStatus, req, res, grantOf<ErrorScope>(res)));
  router.get('/extensions/ecomm/v1/sync-errors/portal/:portalId', ...portalAccount, (req, res) =>
    listV1(readSyncStatus, req, res, { portalId: grantOf<number>(res) }),
  );
  router.get('/extensions/ecomm/v2/sync/crm-health', ...customerData, async (_req, res) => {
    res.json(await readSyncStatus.crmHealth(grantOf<Tenant>(res).portalId));
  });

  router.get('/extensions/ecomm/v2/sync/errors/portal', ...portalAccount, (req, res) => listV2Bound(req, res, { portalId: grantOf<number>(res) }));
  router.get('/extensions/ecomm/v2/sync/errors/portal/:portalId', ...portalAccount, (req, res) => listV2Bound(req, res, { portalId: grantOf<number>(res) }));
  router.get('/extensions/ecomm/v2/sync/errors', ...auth.require(auth.installedApplication), (req, res) => listV2Bound(req, res, grantOf<Tenant>(res)));

  const developerApplication = auth.require(auth.developerApplication);
  router.get('/extensions/ecomm/v1/sync-errors/app/:appId', ...developerApplication, (req, res) => listV1(readSyncStatus, req, res, grantOf<ErrorScope>(res)));
  router.get('/extensions/ecomm/v2/sync/errors/app/:appId', ...developerApplication, (req, res) => listV2Bound(req, res, grantOf<ErrorScope>(res)));

  return router;
}
