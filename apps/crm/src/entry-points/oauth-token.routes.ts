import express, { Router, type ErrorRequestHandler } from 'express';
import { AppError } from '@ecomm-sync/runtime';
import type { OAuthStore, RefreshRefusal } from '../data-access/oauth-store';
import type { OAUTH_ERROR_CODES, OAUTH_REFUSAL_STATUSES } from './oauth-schemas';

type RefusalStatus = (typeof OAUTH_REFUSAL_STATUSES)[number];
type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/**
 * A refusal of the token endpoint. It is answered here, not by the central handler, because the
 * hosted CRM's OAuth body names the refusal in `status`, which the common error body keeps "error".
 */
class OAuthRefusal extends Error {
  constructor(
    readonly status: RefusalStatus,
    readonly error: OAuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const REFUSED: Record<RefreshRefusal, () => OAuthRefusal> = {
  BAD_CLIENT_ID: () => new OAuthRefusal('BAD_CLIENT_ID', 'invalid_client', 'missing or invalid client id or client secret'),
  BAD_REFRESH_TOKEN: () =>
    new OAuthRefusal(
      'BAD_REFRESH_TOKEN',
      'invalid_grant',
      'missing or invalid refresh token: it was not issued to this client, or the client was registered again since',
    ),
};

/** The refusal a missing form field is. */
const MISSING: Record<'grant_type' | 'client_id' | 'client_secret' | 'refresh_token', RefusalStatus> = {
  grant_type: 'BAD_GRANT_TYPE',
  client_id: 'BAD_CLIENT_ID',
  client_secret: 'BAD_CLIENT_ID',
  refresh_token: 'BAD_REFRESH_TOKEN',
};

const answerRefusal: ErrorRequestHandler = (error, _req, res, next) => {
  if (!(error instanceof OAuthRefusal)) return next(error);
  const requestId = String(res.locals.requestId ?? '');
  res.setHeader('cache-control', 'no-store');
  res.status(400).json({
    status: error.status,
    message: error.message,
    correlationId: requestId,
    category: 'VALIDATION_ERROR',
    error: error.error,
    error_description: error.message,
    requestId,
  });
};

/**
 * `POST /oauth/v1/token` as the hosted CRM's (and its SDK's `oauth.tokensApi.create`): a form with
 * `grant_type=refresh_token`, `client_id`, `client_secret` and `refresh_token`. Mounted before the
 * JSON body parser, which refuses forms.
 */
export function oauthTokenRoutes(oauth: OAuthStore, clock: () => number): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  router.post(
    '/oauth/v1/token',
    (req, _res, next) => {
      const type = req.header('content-type') ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
        return next(new AppError(415, `Content-Type must be application/x-www-form-urlencoded, got "${type.slice(0, 100) || 'none'}"`));
      }
      next();
    },
    form,
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const field = (name: keyof typeof MISSING): string => {
        const value = body[name];
        if (typeof value !== 'string' || value === '') throw new OAuthRefusal(MISSING[name], 'invalid_request', `The form field ${name} is required, once`);
        return value;
      };
      const grantType = field('grant_type');
      if (grantType !== 'refresh_token') {
        throw new OAuthRefusal(
          'BAD_GRANT_TYPE',
          'unsupported_grant_type',
          `grant_type must be refresh_token, got "${grantType.slice(0, 50)}": the built-in CRM has no authorization page; a refresh token comes from POST /crm/admin/v1/accounts/{portalId}/oauth-grants`,
        );
      }
      const issued = await oauth.refresh(field('client_id'), field('client_secret'), field('refresh_token'), clock());
      if (typeof issued === 'string') throw REFUSED[issued]();
      res.setHeader('cache-control', 'no-store');
      res.json({ access_token: issued.accessToken, refresh_token: issued.refreshToken, expires_in: issued.expiresIn, token_type: 'bearer' });
    },
  );
  router.use('/oauth/v1/token', answerRefusal);
  return router;
}
