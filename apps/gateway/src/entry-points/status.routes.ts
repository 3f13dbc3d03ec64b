import { Router, type Request } from 'express';

import type { ReadSyncStatusUseCase } from '../use-cases/read-sync-status.use-case';
import { toV1ErrorRecord, toV2ErrorRecord } from '../use-cases/read-sync-status.use-case';
import { principalOf } from './authenticate';
import { booleanParam, integerParam, objectIdParam, objectTypeParam, optionalErrorType, optionalObjectType } from './query-params';

export const MAX_ERRORS_PER_PAGE = 200;

function nextPageLink(req: Request, page: number): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host')}`);
  url.searchParams.set('page', String(page));
  url.searchParams.delete('hapikey');
  return url.toString();
}

/** Per-object sync status and error listings, v1 and v2. */
export function statusRoutes(readSyncStatus: ReadSyncStatusUseCase): Router {
  const router = Router();

  router.get('/extensions/ecomm/v1/sync-status/:objectType/:integratorObjectId', async (req, res) => {
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const id = objectIdParam(req.params.integratorObjectId, 'integratorObjectId');
    res.json(await readSyncStatus.v1Status(principalOf(res).tenant, objectType, id));
  });

  router.get('/extensions/ecomm/v2/sync/status/:storeId/:objectType/:externalObjectId', async (req, res) => {
    const storeId = objectIdParam(req.params.storeId, 'storeId');
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const id = objectIdParam(req.params.externalObjectId, 'externalObjectId');
    res.json(await readSyncStatus.v2Status(principalOf(res).tenant, storeId, objectType, id));
  });

  router.get('/extensions/ecomm/v1/sync-errors', async (req, res) => {
    const { tenant } = principalOf(res);
    const { errors } = await readSyncStatus.listErrors({
      portalId: tenant.portalId,
      appId: tenant.appId,
      includeResolved: booleanParam(req.query, 'showResolvedErrors', false),
      errorType: optionalErrorType(req.query),
      objectType: optionalObjectType(req.query),
      limit: integerParam(req.query, 'limit', MAX_ERRORS_PER_PAGE, 1, MAX_ERRORS_PER_PAGE),
      offset: integerParam(req.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    });
    res.json({ results: errors.map(toV1ErrorRecord) });
  });

  router.get('/extensions/ecomm/v2/sync/errors/portal', async (req, res) => {
    const { tenant } = principalOf(res);
    // `page` is a 1-based record offset: the next page is page + limit (vendor-api-notes.md).
    const limit = integerParam(req.query, 'limit', MAX_ERRORS_PER_PAGE, 1, MAX_ERRORS_PER_PAGE);
    const page = integerParam(req.query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
    const { errors, hasMore } = await readSyncStatus.listErrors({
      portalId: tenant.portalId,
      includeResolved: booleanParam(req.query, 'includeResolved', false),
      errorType: optionalErrorType(req.query),
      objectType: optionalObjectType(req.query),
      limit,
      offset: page - 1,
    });
    res.json({
      results: errors.map(toV2ErrorRecord),
      ...(hasMore ? { paging: { next: { page: String(page + limit), link: nextPageLink(req, page + limit) } } } : {}),
    });
  });

  return router;
}

