import { Schema, type Connection } from 'mongoose';

/** An OAuth client registered for one account, with the refresh token it was handed (both hashed). */
const oauthGrantSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    clientId: { type: String, required: true },
    clientSecretHash: { type: String, required: true },
    refreshTokenHash: { type: String, required: true },
  },
  { collection: 'crm_oauth_grants', versionKey: false, timestamps: true },
);
// Serves: the token endpoint, which finds the grant by the refresh token presented.
oauthGrantSchema.index({ refreshTokenHash: 1 }, { unique: true });
// Serves: the admin call (one grant per client and account), and the token endpoint's check of a
// client whose refresh token matched nothing (client id first).
oauthGrantSchema.index({ clientId: 1, portalId: 1 }, { unique: true });

/** An access token the token endpoint issued: `_id` is its sha256, never the token itself. */
const oauthAccessTokenSchema = new Schema(
  {
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    clientId: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'crm_oauth_access_tokens', versionKey: false },
);
// The _id serves authentication. The database removes a token once it expired (TTL); the TTL
// monitor runs about once a minute, so reads check the expiry too.
oauthAccessTokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export interface OAuthAccessTokenDoc {
  _id: string;
  portalId: number;
  clientId: string;
  expiresAt: Date;
}

export function oauthModels(connection: Connection) {
  return {
    oauthGrants: connection.model('CrmOAuthGrant', oauthGrantSchema),
    oauthAccessTokens: connection.model('CrmOAuthAccessToken', oauthAccessTokenSchema),
  };
}
