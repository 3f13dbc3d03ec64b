import type { Request, RequestHandler, Response } from 'express';
import type { Tenant } from '@ecomm-sync/contracts';
import type { AccountRepository } from '@ecomm-sync/data-access';
import { encodeSettingsOwner } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';
import type { CredentialResolver, Principal } from './credential-resolver';
import { textParam } from './query-params';

/** The `appId` query parameter (application mode), when given. */
const appIdQuery = (req: Request): string | undefined => textParam(req.query, 'appId');

/** What a rule grants: read by the route with `grantOf`. */
export type Rule<G> = (principal: Principal, req: Request) => G | Promise<G>;

/** An application's data across portals: only those in `portalIds`, the ones that have it installed now. */
export interface ApplicationWide {
  appId: string;
  portalIds: number[];
}

/** The portals that have the application installed now: what an integrator's application-wide reads may read. */
export const installedPortalIds = async (accounts: Pick<AccountRepository, 'listInstalls'>, appId: string): Promise<number[]> =>
  (await accounts.listInstalls({ appId })).map((install) => install.portalId);

export const grantOf = <G>(res: Response): G => res.locals.grant as G;
export const principalOf = (res: Response): Principal => res.locals.principal as Principal;

const describe = (principal: Principal): string =>
  ({
    'portal-key': 'A portal API key',
    'private-app-token': 'A private-app token',
    'access-token': 'An OAuth access token',
    'developer-key': 'A developer API key',
  })[principal.kind];

/**
 * The credential rules of SPEC.md's table, one per kind of endpoint. Each answers what the
 * credential may reach, or throws: 403 for a valid credential of the wrong kind, 404 where saying
 * more would tell another tenant's data exists.
 */
export class Authorizer {
  constructor(
    private readonly resolver: CredentialResolver,
    private readonly accounts: AccountRepository,
    /** Runs after identification (keyed by the principal's credential, an install's access tokens together: rate-limit.ts). */
    private readonly rateLimit: RequestHandler,
    /**
     * Reads the request's body (JSON): last, so that no body is read (up to the size limit) for a
     * request whose credential, rate limit or rule refuses it.
     */
    private readonly readBody: RequestHandler[] = [],
  ) {}

  /** Identify, rate-limit, apply `rule` (its result is the route's grant), then read the body. */
  require<G>(rule: Rule<G>): RequestHandler[] {
    return [
      async (req, res, next) => {
        res.locals.principal = await this.resolver.identify(req);
        next();
      },
      this.rateLimit,
      async (req, res, next) => {
        res.locals.grant = await rule(principalOf(res), req);
        next();
      },
      ...this.readBody,
    ];
  }

  /**
   * A customer's data (sync messages, stores, sync status, per-object errors): the customer's
   * OAuth access token (application mode) or the portal's key or private-app token (direct mode).
   */
  readonly customerData: Rule<Tenant> = (principal) => {
    if (principal.kind === 'access-token') return { portalId: principal.portalId, appId: principal.appId };
    if (principal.kind === 'developer-key') {
      throw AppError.forbidden("A developer API key cannot reach a customer's data; use the customer's OAuth access token, or the portal's API key");
    }
    return { portalId: principal.portalId, appId: null };
  };

  /** A whole portal's errors (v1 and v2 portal listings): the portal's key or private-app token. */
  readonly portalAccount: Rule<number> = (principal, req) => {
    if (principal.kind !== 'portal-key' && principal.kind !== 'private-app-token') {
      throw AppError.forbidden(
        principal.kind === 'access-token'
          ? "An OAuth access token reads its own application's errors at GET /extensions/ecomm/v2/sync/errors; the portal listing takes the portal's API key"
          : "A developer API key cannot read a portal's errors; use the portal's API key, or GET .../sync/errors/app/{appId}",
      );
    }
    const inPath = req.params.portalId;
    if (inPath !== undefined && !/^\d+$/.test(String(inPath))) {
      throw AppError.badRequest(`Path parameter portalId must be a portal id (digits), got "${String(inPath).slice(0, 100)}"`);
    }
    // Digits, read as a number: 0101 is portal 101, as the other portal parameters read it.
    if (inPath !== undefined && Number(inPath) !== principal.portalId) {
      throw AppError.forbidden(`This credential belongs to portal ${principal.portalId}, not to portal ${String(inPath).slice(0, 100)}`);
    }
    return principal.portalId;
  };

  /** One application within one portal (GET /v2/sync/errors, imports): the customer's OAuth access token. */
  readonly installedApplication: Rule<Tenant> = (principal) => {
    if (principal.kind !== 'access-token') {
      throw AppError.forbidden(
        `${describe(principal)} cannot be used here; this endpoint takes the OAuth access token of the application installed in the portal`,
      );
    }
    return { portalId: principal.portalId, appId: principal.appId };
  };

  /**
   * Starting an import and reading its state: the customer, with the portal's key or private-app
   * token and the `appId` of an application installed in the portal, or the application itself
   * with its OAuth token. Direct mode cannot import (SPEC.md point 7). The `appId` a portal
   * credential names must be installed now: an application removed from the portal is not the
   * customer's to import for, nor its imports (the integrator's address, its answers) to read.
   */
  readonly importingApplication: Rule<{ portalId: number; appId: string }> = async (principal, req) => {
    if (principal.kind === 'access-token') return { portalId: principal.portalId, appId: principal.appId };
    if (principal.kind === 'developer-key') {
      throw AppError.forbidden("A developer API key cannot start a customer's import; the customer starts it with the portal's key and appId");
    }
    const appId = appIdQuery(req);
    if (!appId) throw AppError.badRequest('Imports are for applications (application mode): add ?appId=<the application installed in this portal>');
    if (!(await this.accounts.findInstall(principal.portalId, appId)))
      throw AppError.notFound(
        `Application ${appId} is not installed in portal ${principal.portalId}; use the appId of an application installed in it (GET /console/api/v1/installs lists them)`,
      );
    return { portalId: principal.portalId, appId };
  };

  /**
   * Settings and import settings: the developer key with `appId` (application mode) or the
   * portal's key or private-app token without `appId` (direct mode). Answers the settings' owner.
   */
  readonly settingsOwner: Rule<string> = async (principal, req) => {
    const appId = appIdQuery(req);
    if (principal.kind === 'developer-key') {
      if (!appId) throw AppError.badRequest('appId is required with a developer API key: add ?appId=<your application id>');
      return encodeSettingsOwner({ kind: 'app', appId: await this.ownApplication(principal, appId) });
    }
    if (principal.kind === 'access-token') {
      throw AppError.forbidden('An OAuth access token cannot manage settings; use the developer API key with appId (application mode) or the portal API key');
    }
    if (appId) throw AppError.forbidden('A portal credential cannot manage application settings; use the developer API key of the application');
    return encodeSettingsOwner({ kind: 'portal', portalId: principal.portalId });
  };

  /**
   * An application's own listings (`.../app/{appId}`): the developer key of its owner, over the
   * portals that have the application installed now (one that uninstalled it keeps its data, no
   * longer the integrator's to read).
   */
  readonly developerApplication: Rule<ApplicationWide> = async (principal, req) => {
    if (principal.kind !== 'developer-key') {
      throw AppError.forbidden(`${describe(principal)} cannot read an application's errors; use the developer API key, or the portal listing`);
    }
    return this.applicationWide(await this.ownApplication(principal, String(req.params.appId)));
  };

  /**
   * v1 error listing: the developer key with `appId` (every portal of the application), the
   * portal's key or private-app token (the portal's direct-mode errors), or an installed
   * application's OAuth token (that application's errors in that portal). An `appId` the
   * credential does not stand for is refused, never ignored: answering another tenant's errors
   * (an empty list, mostly) would read as "that application has none".
   */
  readonly v1ErrorScope: Rule<ApplicationWide | { portalId: number; appId: string | null }> = async (principal, req) => {
    const appId = appIdQuery(req);
    if (principal.kind === 'developer-key') {
      if (!appId) throw AppError.badRequest('appId is required with a developer API key: add ?appId=<your application id>');
      return this.applicationWide(await this.ownApplication(principal, appId));
    }
    // The OAuth token of an installed application: that application's errors in that portal, as
    // GET /extensions/ecomm/v2/sync/errors answers.
    if (principal.kind === 'access-token') {
      if (appId && appId !== principal.appId)
        throw AppError.forbidden(`This access token is application ${principal.appId}'s; appId ${appId} names another application`);
      return { portalId: principal.portalId, appId: principal.appId };
    }
    if (appId) {
      throw AppError.forbidden(
        `A portal credential lists the portal's own (direct-mode) errors, without appId; every application's errors in the portal: GET /extensions/ecomm/v1/sync-errors/portal/${principal.portalId}`,
      );
    }
    return { portalId: principal.portalId, appId: null };
  };

  /** An application across the portals that have it installed now. */
  private async applicationWide(appId: string): Promise<ApplicationWide> {
    return { appId, portalIds: await installedPortalIds(this.accounts, appId) };
  }

  /** 404 for an application of another developer: saying more would tell that it exists. */
  private async ownApplication(principal: Extract<Principal, { kind: 'developer-key' }>, appId: string): Promise<string> {
    const application = await this.accounts.findApplication(appId);
    if (!application || application.developerId !== principal.developerId) throw AppError.notFound(`No application ${appId} belongs to this developer account`);
    return application.appId;
  }
}
