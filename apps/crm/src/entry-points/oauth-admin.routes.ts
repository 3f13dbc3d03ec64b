import { Router, type RequestHandler } from 'express';
import { parseWith } from '@ecomm-sync/runtime';
import type { OAuthStore } from '../data-access/oauth-store';
import { portalIdOf } from './limits-admin.routes';
import { validateOAuthGrant } from './oauth-schemas';

/**
 * Admin: what the hosted CRM's app install gives a client, for an account of the built-in CRM: the
 * client registered for the account and a refresh token for POST /oauth/v1/token. The refresh
 * token is shown once; only its hash is kept.
 */
export function oauthAdminRoutes(oauth: OAuthStore, adminAuth: RequestHandler): Router {
  const router = Router();
  router.post('/crm/admin/v1/accounts/:portalId/oauth-grants', adminAuth, async (req, res) => {
    const portalId = portalIdOf(req);
    const { clientId, clientSecret } = parseWith(validateOAuthGrant, req.body ?? {});
    const refreshToken = await oauth.grant(portalId, clientId, clientSecret);
    res.setHeader('cache-control', 'no-store');
    res.status(201).json({ portalId, clientId, refreshToken });
  });
  return router;
}
