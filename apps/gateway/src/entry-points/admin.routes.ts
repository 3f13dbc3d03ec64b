import express, { Router, type Request, type RequestHandler } from 'express';
import {
  createValidator,
  crmConnectionInputSchema,
  namedSchema,
  newAppSchema,
  newInstallSchema,
  newPortalSchema,
  portalChangeSchema,
} from '@ecomm-sync/contracts';
import { AppError, failedAuthThrottle, parseWith, staticBearerAuth, type FailedAuthThrottleOptions } from '@ecomm-sync/runtime';
import { oauthError, type ManageAccountsUseCase } from '../use-cases/manage-accounts.use-case';
import type { AdminListingsUseCase } from '../use-cases/admin-listings.use-case';
import { idKey, installKey, listingAnswer, listingPage, textKey } from './admin-listing';
import { textParam } from './query-params';

const validateNewPortal = createValidator(newPortalSchema);
const validatePortalChange = createValidator(portalChangeSchema);
const validateCrmConnection = createValidator(crmConnectionInputSchema);
const validateNamed = createValidator(namedSchema);
const validateNewApp = createValidator(newAppSchema);
const validateNewInstall = createValidator(newInstallSchema);

/** Digits only: Number() would also take "", " 7", "0x10", "1e3" and "-3" as numbers. */
const DIGITS = /^\d+$/;

const integerIn = (req: Request, param: string): number => {
  const written = String(req.params[param]);
  const value = Number(written);
  if (!DIGITS.test(written) || !Number.isSafeInteger(value) || value < 1)
    throw AppError.badRequest(`${param} in the path must be a positive integer, got "${written}"`);
  return value;
};

const optionalInteger = (req: Request, param: string): number | undefined => {
  const value = req.query[param];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || !DIGITS.test(value) || !Number.isSafeInteger(number) || number < 1)
    throw AppError.badRequest(`Query parameter ${param} must be a positive integer, got "${String(value)}"`);
  return number;
};

const optionalString = (req: Request, param: string): string | undefined => textParam(req.query, param);

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('cache-control', 'no-store');
  next();
};

/** Admin API (`Authorization: Bearer <ADMIN_TOKEN>`): accounts, credentials, installs. docs/api.md lists it. */
export function adminRoutes(accounts: ManageAccountsUseCase, listings: AdminListingsUseCase, adminToken: string, readBody: RequestHandler[]): Router {
  const router = Router();
  // The body is read after the admin token was checked. No answer is kept by a cache on the way:
  // several carry secrets (keys, tokens, client secrets: RFC 6749 5.1 asks no-store of tokens), and
  // the rest is operator data.
  router.use('/admin', staticBearerAuth(adminToken, 'The admin API'), noStore, ...readBody);

  router.post('/admin/v1/portals', async (req, res) => {
    res.status(201).json(await accounts.createPortal(parseWith(validateNewPortal, req.body ?? {})));
  });
  router.get('/admin/v1/portals', async (req, res) => {
    res.json(listingAnswer(await listings.portals(listingPage(req, idKey)), idKey, (portal) => portal.portalId));
  });
  router.get('/admin/v1/portals/:portalId', async (req, res) => {
    res.json(await accounts.getPortal(integerIn(req, 'portalId')));
  });
  router.patch('/admin/v1/portals/:portalId', async (req, res) => {
    const { pipelineLimit } = parseWith(validatePortalChange, req.body);
    await accounts.setPipelineLimit(integerIn(req, 'portalId'), pipelineLimit);
    res.status(204).end();
  });
  for (const [state, active] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    router.post(`/admin/v1/portals/:portalId/${state}`, async (req, res) => {
      await accounts.setPortalActive(integerIn(req, 'portalId'), active);
      res.status(204).end();
    });
  }
  router.get('/admin/v1/portals/:portalId/crm-connection', async (req, res) => {
    res.json(await accounts.getCrmConnection(integerIn(req, 'portalId')));
  });
  router.put('/admin/v1/portals/:portalId/crm-connection', async (req, res) => {
    const portalId = integerIn(req, 'portalId');
    res.json(await accounts.setCrmConnection(portalId, parseWith(validateCrmConnection, req.body)));
  });
  router.post('/admin/v1/portals/:portalId/api-key', async (req, res) => {
    res.status(201).json(await accounts.rotatePortalKey(integerIn(req, 'portalId')));
  });
  router.post('/admin/v1/portals/:portalId/private-apps', async (req, res) => {
    const body = parseWith(validateNamed, req.body ?? {});
    res.status(201).json(await accounts.createPrivateAppToken(integerIn(req, 'portalId'), body.name ?? 'private app'));
  });

  router.post('/admin/v1/developers', async (req, res) => {
    res.status(201).json(await accounts.createDeveloper(parseWith(validateNamed, req.body ?? {}).name));
  });
  router.get('/admin/v1/developers', async (req, res) => {
    res.json(listingAnswer(await listings.developers(listingPage(req, idKey)), idKey, (developer) => developer.developerId));
  });
  router.post('/admin/v1/developers/:developerId/api-key', async (req, res) => {
    res.status(201).json(await accounts.rotateDeveloperKey(integerIn(req, 'developerId')));
  });

  router.post('/admin/v1/apps', async (req, res) => {
    const body = parseWith(validateNewApp, req.body);
    res.status(201).json(await accounts.createApplication(body.developerId, body.name));
  });
  router.get('/admin/v1/apps', async (req, res) => {
    const listing = await listings.applications(optionalInteger(req, 'developerId'), listingPage(req, textKey));
    res.json(listingAnswer(listing, textKey, (application) => application.appId));
  });
  router.post('/admin/v1/apps/:appId/client-secret', async (req, res) => {
    res.status(201).json(await accounts.rotateClientSecret(String(req.params.appId)));
  });

  router.post('/admin/v1/installs', async (req, res) => {
    const body = parseWith(validateNewInstall, req.body);
    res.status(201).json(await accounts.install(body.portalId, body.appId));
  });
  router.get('/admin/v1/installs', async (req, res) => {
    const filter = { portalId: optionalInteger(req, 'portalId'), appId: optionalString(req, 'appId') };
    res.json(listingAnswer(await listings.installs(filter, listingPage(req, installKey)), installKey, ({ portalId, appId }) => ({ portalId, appId })));
  });
  router.delete('/admin/v1/installs/:portalId/:appId', async (req, res) => {
    await accounts.uninstall(integerIn(req, 'portalId'), String(req.params.appId));
    res.status(204).end();
  });

  router.get('/admin/v1/credentials', async (req, res) => {
    const filter = { portalId: optionalInteger(req, 'portalId'), developerId: optionalInteger(req, 'developerId'), appId: optionalString(req, 'appId') };
    res.json({ results: await accounts.listCredentials(filter) });
  });
  router.delete('/admin/v1/credentials/:credentialId', async (req, res) => {
    await accounts.revoke(String(req.params.credentialId));
    res.status(204).end();
  });

  return router;
}

/**
 * `POST /oauth/v1/token` (form-encoded, RFC 6749 section 6): `grant_type=refresh_token` with
 * `client_id`, `client_secret` and `refresh_token`. First tokens come from an install (admin API).
 */
export function oauthRoutes(accounts: ManageAccountsUseCase, throttle: FailedAuthThrottleOptions): Router {
  const router = Router();
  // Beside the gateway-wide throttle (client address): wrong secrets for one client_id, from anywhere.
  const byClientId = {
    what: 'client_id',
    of: (req: Request) => (typeof req.body?.client_id === 'string' && req.body.client_id !== '' ? req.body.client_id : undefined),
  };
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  router.post('/oauth/v1/token', form, async (req, res) => {
    const type = req.header('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
      throw new AppError(415, `Content-Type must be application/x-www-form-urlencoded, got "${type || 'none'}"`);
    }
    const form = (req.body ?? {}) as Record<string, unknown>;
    const field = (key: string): string => {
      const value = form[key];
      if (typeof value !== 'string' || value === '') throw oauthError(400, 'invalid_request', `The form field ${key} is required`);
      return value;
    };
    const grantType = field('grant_type');
    if (grantType !== 'refresh_token') {
      throw oauthError(
        400,
        'unsupported_grant_type',
        `grant_type must be refresh_token, got "${grantType}"; first tokens come with the install (POST /admin/v1/installs)`,
      );
    }
    const tokens = await accounts.refresh(field('client_id'), field('client_secret'), field('refresh_token'));
    res.setHeader('cache-control', 'no-store');
    res.json({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expires_in: tokens.expiresIn, token_type: 'bearer' });
  });
  router.use('/oauth/v1/token', failedAuthThrottle(throttle, [byClientId]));
  return router;
}
