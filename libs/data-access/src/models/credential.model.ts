import { Schema, type Connection } from 'mongoose';

export const CREDENTIAL_KINDS = ['portal-key', 'developer-key', 'private-app-token', 'access-token', 'refresh-token'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/**
 * Every inbound secret of the service, one document each, keyed by the SHA-256 of the secret (the
 * secrets are 256 random bits, so a fast hash suffices): any credential resolves with one
 * equality read on `_id`, whatever its kind. The secret itself is never stored.
 */
const credentialSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** Public handle for listing and revoking; says nothing about the secret. */
    credentialId: { type: String, required: true },
    /** One of CREDENTIAL_KINDS, or `spent-refresh-token` (a used refresh token kept for its grace; CredentialRepository). */
    kind: { type: String, enum: [...CREDENTIAL_KINDS, 'spent-refresh-token'], required: true },
    portalId: { type: Number, default: null },
    developerId: { type: Number, default: null },
    appId: { type: String, default: null },
    /** A private app's name (listing only). */
    name: { type: String, default: null },
    /** Epoch ms after which the credential is refused (access tokens); null: until revoked. */
    expiresAt: { type: Number, default: null },
    createdAt: { type: Number, required: true },
    /**
     * A used refresh token (kind `spent-refresh-token`): `{at, accessTokenId, refreshTokenId}`, the
     * pair its use bought. It is kept through a short grace, so a client whose answer was lost can
     * retry (decision 12, addendum of 2026-12-05); absent while unused.
     */
    spent: { type: Schema.Types.Mixed },
    /** An access token's first use (epoch ms): a pair whose access token was used reached its client (decision 12, addendum of 2026-12-05). */
    usedAt: { type: Number },
    /** A rotated key's generation (key_generations): a rotation revokes the keys of generations below its own; absent: 0. */
    generation: { type: Number },
  },
  { collection: 'credentials', versionKey: false },
);
// Serves: revocation and listing by public id.
credentialSchema.index({ credentialId: 1 }, { unique: true });
// Serves: a portal's credentials (listing, key rotation, revoking an install's tokens, deleting its spent refresh tokens and
// expired access tokens), and an install's access tokens newest first, for those beyond its limit (read in index order, not sorted in memory).
credentialSchema.index({ portalId: 1, appId: 1, kind: 1, createdAt: 1, credentialId: 1 });
// Serves: a developer's keys (listing, rotation).
credentialSchema.index({ developerId: 1, kind: 1 });

export const credentialModel = (connection: Connection) => connection.model('Credential', credentialSchema);

const installSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    appId: { type: String, required: true },
    installedAt: { type: Number, required: true },
  },
  { collection: 'installs', versionKey: false },
);
// Serves: one install (token issue and refresh), the installs of a portal (listing).
installSchema.index({ portalId: 1, appId: 1 }, { unique: true });
// Serves: the portals an application is installed in (listing).
installSchema.index({ appId: 1, portalId: 1 });

export const installModel = (connection: Connection) => connection.model('Install', installSchema);

/**
 * How many times a portal's or developer's key was rotated (`<kind>:<owner>`): the database orders
 * rotations, so that of two at once the later one's key is the one that stays, whatever the
 * clocks (decision 8, addendum of 2026-12-08).
 */
const keyGenerationSchema = new Schema(
  { _id: { type: String, required: true }, generation: { type: Number, required: true } },
  { collection: 'key_generations', versionKey: false },
);

export const keyGenerationModel = (connection: Connection) => connection.model('KeyGeneration', keyGenerationSchema);
