import type { RequestHandler, Response } from 'express';
import type { Tenant } from '@ecomm-sync/contracts';
import { hashSecret, type AccountRepository, type Application, type Portal, type PortalRepository } from '@ecomm-sync/data-access';
import { TtlCache } from '../use-cases/ttl-cache';
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
  (portals: PortalRepository, cache: TtlCache<Portal | null> = new TtlCache(0)): RequestHandler =>
  async (req, res, next) => {
    const apiKey = typeof req.query.hapikey === 'string' ? req.query.hapikey : undefined;
    if (!apiKey) return next(AppError.unauthorized('Missing credential: pass the portal API key in the hapikey query parameter'));
    const portal = await cache.get(hashSecret(apiKey), () => portals.findByApiKey(apiKey));
    if (!portal) return next(AppError.unauthorized('Invalid hapikey: no portal has this API key'));
    const principal: Principal = { kind: 'portal-key', portal, tenant: { portalId: portal.portalId, appId: null } };
    res.locals.principal = principal;
    next();
  };

export interface SettingsPrincipal {
  /** `app:<appId>` or `portal:<portalId>`: whose settings the request reads or writes. */
  owner: string;
}

export const settingsPrincipalOf = (res: Response): SettingsPrincipal => res.locals.settingsPrincipal as SettingsPrincipal;

/**
 * Settings, import settings: the developer API key with `appId` (application mode), or the portal's
 * API key without `appId` (direct mode). SPEC.md "Authentication".
 */
export const settingsAuth =
  (portals: PortalRepository, accounts: AccountRepository): RequestHandler =>
  async (req, res, next) => {
    const apiKey = typeof req.query.hapikey === 'string' ? req.query.hapikey : undefined;
    const appId = typeof req.query.appId === 'string' && req.query.appId !== '' ? req.query.appId : undefined;
    if (!apiKey) {
      return next(AppError.unauthorized(`Missing credential: pass ${appId ? 'the developer API key' : 'the portal API key'} in the hapikey query parameter`));
    }
    if (appId) {
      const resolved = await applicationOfDeveloperKey(accounts, portals, apiKey, appId, 'A portal API key cannot manage application settings; use the developer API key of the application');
      if (resolved instanceof AppError) return next(resolved);
      res.locals.settingsPrincipal = { owner: `app:${appId}` } satisfies SettingsPrincipal;
      return next();
    }
    const portal = await portals.findByApiKey(apiKey);
    if (!portal) {
      const developer = await accounts.findDeveloperByApiKey(apiKey);
      return next(
        developer
          ? AppError.badRequest('appId is required with a developer API key: add ?appId=<your application id>')
          : AppError.unauthorized('Invalid hapikey: no portal has this API key'),
      );
    }
    res.locals.settingsPrincipal = { owner: `portal:${portal.portalId}` } satisfies SettingsPrincipal;
    next();
  };

/**
 * An application's own listings (`.../app/{appId}`): the developer API key of the developer who
 * owns the application, in `hapikey`.
 */
export const developerAppAuth =
  (accounts: AccountRepository, portals: PortalRepository): RequestHandler =>
  async (req, res, next) => {
    const apiKey = typeof req.query.hapikey === 'string' ? req.query.hapikey : undefined;
    if (!apiKey) return next(AppError.unauthorized('Missing credential: pass the developer API key in the hapikey query parameter'));
    const application = await applicationOfDeveloperKey(
      accounts,
      portals,
      apiKey,
      String(req.params.appId),
      "A portal API key cannot read an application's errors; use the developer API key, or the portal endpoint",
    );
    if (application instanceof AppError) return next(application);
    res.locals.appId = application.appId;
    next();
  };

/**
 * The application `appId` when `apiKey` is the developer key of its owner; otherwise the answer to
 * give: 403 for a portal key (valid, but not for this), 401 for no key at all, 404 for an
 * application of another developer (saying more would leak that it exists).
 */
async function applicationOfDeveloperKey(
  accounts: AccountRepository,
  portals: PortalRepository,
  apiKey: string,
  appId: string,
  portalKeyMessage: string,
): Promise<Application | AppError> {
  const developer = await accounts.findDeveloperByApiKey(apiKey);
  if (!developer) {
    return (await portals.findByApiKey(apiKey))
      ? AppError.forbidden(portalKeyMessage)
      : AppError.unauthorized('Invalid hapikey: no developer account has this API key');
  }
  const application = await accounts.findApplication(appId);
  if (!application || application.developerId !== developer.developerId) {
    return AppError.notFound(`No application ${appId} belongs to this developer account`);
  }
  return application;
}
