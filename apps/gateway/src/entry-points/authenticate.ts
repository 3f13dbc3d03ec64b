import type { RequestHandler, Response } from 'express';
import type { Tenant } from '@ecomm-sync/contracts';
import type { Portal, PortalRepository } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/http';

export interface Principal {
  kind: 'portal-key';
  portal: Portal;
  tenant: Tenant;
}

export const principalOf = (res: Response): Principal => res.locals.principal as Principal;

/**
 * A portal's API key in `hapikey` (direct portal mode). A malformed `Authorization` header that
 * comes with a valid hapikey is ignored: a client in the field sends `Bearer undefined`.
 */
export const portalKeyAuth =
  (portals: PortalRepository): RequestHandler =>
  async (req, res, next) => {
    const apiKey = typeof req.query.hapikey === 'string' ? req.query.hapikey : undefined;
    if (!apiKey) return next(AppError.unauthorized('Missing credential: pass the portal API key in the hapikey query parameter'));
    const portal = await portals.findByApiKey(apiKey);
    if (!portal) return next(AppError.unauthorized('Invalid hapikey: no portal has this API key'));
    const principal: Principal = { kind: 'portal-key', portal, tenant: { portalId: portal.portalId, appId: null } };
    res.locals.principal = principal;
    next();
  };
