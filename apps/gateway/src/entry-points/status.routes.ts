import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ErrorQuery } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/http';

import type { ReadSyncStatusUseCase } from '../use-cases/read-sync-status.use-case';
import { toV1ErrorRecord, toV2ErrorRecord } from '../use-cases/read-sync-status.use-case';
import { DEFAULT_STORE_ID } from '@ecomm-sync/contracts';
import { principalOf } from './authenticate';
import { booleanParam, integerParam, objectIdParam, objectTypeParam, optionalErrorType, optionalObjectType } from './query-params';

export const MAX_ERRORS_PER_PAGE = 200;

function nextPageLink(req: Request, page: number): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host')}`);
  url.searchParams.set('page', String(page));
  url.searchParams.delete('hapikey');
  return url.toString();
}

type ErrorScope = Pick<ErrorQuery, 'portalId' | 'appId'>;

/** v2 listing: `page` is a 1-based record offset; the next page is page + limit (vendor-api-notes.md). */
async function listV2(readSyncStatus: ReadSyncStatusUseCase, req: Request, res: Response, scope: ErrorScope) {
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
    ...(hasMore ? { paging: { next: { page: String(page + limit), link: nextPageLink(req, page + limit) } } } : {}),
  });
}

/** v1 listing: `limit` and `offset`, `showResolvedErrors`. */
async function listV1(readSyncStatus: ReadSyncStatusUseCase, req: Request, res: Response, scope: ErrorScope) {
  const { errors } = await readSyncStatus.listErrors({
    ...scope,
    includeResolved: booleanParam(req.query, 'showResolvedErrors', false),
    errorType: optionalErrorType(req.query),
    objectType: optionalObjectType(req.query),
    limit: integerParam(req.query, 'limit', MAX_ERRORS_PER_PAGE, 1, MAX_ERRORS_PER_PAGE),
    offset: integerParam(req.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
  });
  res.json({ results: errors.map(toV1ErrorRecord) });
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

  router.get('/extensions/ecomm/v1/sync-errors', (req, res) => listV1(readSyncStatus, req, res, principalOf(res).tenant));

  /** The portal in the path must be the one the key belongs to. */
  const ownPortal = (req: Request, res: Response): number => {
    const { tenant } = principalOf(res);
    if (String(req.params.portalId) !== String(tenant.portalId)) {
      throw AppError.forbidden(`This API key belongs to portal ${tenant.portalId}, not to portal ${String(req.params.portalId)}`);
    }
    return tenant.portalId;
  };

  router.get('/extensions/ecomm/v2/sync/errors/portal', (req, res) => listV2(readSyncStatus, req, res, { portalId: principalOf(res).tenant.portalId }));
  router.get('/extensions/ecomm/v2/sync/errors/portal/:portalId', (req, res) => listV2(readSyncStatus, req, res, { portalId: ownPortal(req, res) }));
  router.get('/extensions/ecomm/v1/sync-errors/portal/:portalId', (req, res) => listV1(readSyncStatus, req, res, { portalId: ownPortal(req, res) }));

  router.get('/extensions/ecomm/v1/sync-errors/object/:objectType/:integratorObjectId', async (req, res) => {
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const id = objectIdParam(req.params.integratorObjectId, 'integratorObjectId');
    const errors = await readSyncStatus.objectErrors(
      { ...principalOf(res).tenant, storeId: DEFAULT_STORE_ID, objectType, externalObjectId: id },
      booleanParam(req.query, 'showResolvedErrors', false),
    );
    res.json({ results: errors.map(toV1ErrorRecord) });
  });

  return router;
}


/** An application's errors across its portals: the developer key of its owner (mounted before portal-key auth). */
export function applicationErrorRoutes(readSyncStatus: ReadSyncStatusUseCase, auth: RequestHandler): Router {
  const router = Router();
  for (const [path, version] of [
    ['/extensions/ecomm/v1/sync-errors/app/:appId', 'v1'],
    ['/extensions/ecomm/v2/sync/errors/app/:appId', 'v2'],
  ] as const) {
    router.get(path, auth, (req, res) => (version === 'v1' ? listV1 : listV2)(readSyncStatus, req, res, { appId: res.locals.appId as string }));
  }
  return router;
}
