import type { Connection, Model } from 'mongoose';
import type { CrmLimits } from '@ecomm-sync/contracts';
import type { EcommPipelineIds } from '@ecomm-sync/domain';
import { portalModel, type PortalDocument } from '../models/portal.model';
import { Sequences } from './sequences';
import { listingOf, type Listing, type ListingPage } from './listing-page';
import { isSealed, sealedFor } from '../secrets';

/**
 * A portal's CRM connection as stored: every secret sealed (SecretBox). The built-in
 * CRM's token is not part of it: it belongs to the portal's built-in account, whichever CRM the
 * portal syncs to, so switching back to `builtin` needs nothing new.
 */
export type StoredCrmConnection =
  | { kind: 'builtin'; limits: CrmLimits | null; changedAt: number }
  | {
      kind: 'hosted';
      baseUrl: string;
      auth: { type: 'private-app'; tokenSealed: string } | { type: 'oauth'; clientId: string; clientSecretSealed: string; refreshTokenSealed: string };
      limits: CrmLimits;
      changedAt: number;
    };

/** The current OAuth access token of a hosted connection, sealed; every replica uses the same one. */
export interface StoredOAuthToken {
  accessTokenSealed: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms of the refresh that obtained it. */
  refreshedAt: number;
}

export interface Portal {
  portalId: number;
  name: string;
  active: boolean;
  /** The built-in CRM account's token: sealed, or in clear in a document not migrated yet (decision 22). */
  builtinCrmToken: { sealed: string } | { plaintext: string };
  /** Null: never set, the built-in CRM without limits. */
  crmConnection: StoredCrmConnection | null;
  crmOAuthToken: StoredOAuthToken | null;
  /** The ids the CRM gave the portal's ecommerce pipeline and its stages, in the connection named; null until the first install. */
  ecommPipeline: KeptEcommPipeline | null;
}

/** The ecommerce pipeline's ids an install kept, and the CRM connection they belong to. */
export interface KeptEcommPipeline extends EcommPipelineIds {
  /** The `changedAt` of the connection the install ran against (0: the default built-in one). */
  forConnection: number;
}

/** The connection a portal's kept pipeline ids must name to be its current CRM's: its `changedAt`, 0 for the default. */
export const connectionVersionOf = (portal: Pick<Portal, 'crmConnection'>): number => portal.crmConnection?.changedAt ?? 0;

/**
 * The pipeline ids kept for the portal's current CRM connection, or null: none kept, or kept for a
 * connection since replaced (another CRM account has other ids: the pipelines are read there).
 */
export const currentEcommPipeline = (portal: Pick<Portal, 'crmConnection' | 'ecommPipeline'>): EcommPipelineIds | null =>
  portal.ecommPipeline && portal.ecommPipeline.forConnection === connectionVersionOf(portal)
    ? { pipelineId: portal.ecommPipeline.pipelineId, stageIds: portal.ecommPipeline.stageIds }
    : null;

/** A document of before stage ids were kept has the pipeline's id alone, kept for the connection it has. */
function keptPipelineOf(doc: PortalDocument, crmConnection: StoredCrmConnection | null): KeptEcommPipeline | null {
  if (doc.ecommPipeline) return doc.ecommPipeline as KeptEcommPipeline;
  return doc.ecommPipelineId ? { pipelineId: doc.ecommPipelineId, stageIds: {}, forConnection: connectionVersionOf({ crmConnection }) } : null;
}

function toPortal(doc: PortalDocument): Portal {
  const crmConnection = (doc.crmConnection as StoredCrmConnection | undefined) ?? null;
  return {
    portalId: doc.portalId,
    name: doc.name,
    active: doc.active,
    builtinCrmToken: doc.crmTokenSealed ? { sealed: doc.crmTokenSealed } : { plaintext: doc.crmToken ?? '' },
    crmConnection,
    crmOAuthToken: (doc.crmOAuthToken as StoredOAuthToken | undefined) ?? null,
    ecommPipeline: keptPipelineOf(doc, crmConnection),
  };
}

export class PortalRepository {
  private readonly portals: Model<PortalDocument>;
  private readonly sequences: Sequences;

  constructor(connection: Connection) {
    this.portals = portalModel(connection) as unknown as Model<PortalDocument>;
    this.sequences = new Sequences(connection);
  }

  /** Next free portal id; ids start above the range people pick by hand for demos. */
  async nextPortalId(): Promise<number> {
    return 1_000_000 + (await this.sequences.next('portalId'));
  }

  /** A new portal, active, syncing to the built-in CRM. Its API key is a credential (CredentialRepository). */
  async create(portal: { portalId: number; name: string; crmTokenSealed: string }): Promise<Portal> {
    if (!isSealed(portal.crmTokenSealed)) throw new Error('the built-in CRM token must be sealed (SecretBox.seal)');
    const doc = await this.portals.create({ portalId: portal.portalId, name: portal.name, active: true, crmTokenSealed: portal.crmTokenSealed });
    return toPortal(doc.toObject());
  }

  /** Portals in portal id order, a page at a time. */
  async list(page: ListingPage<number>): Promise<Listing<Portal>> {
    const filter = page.after === undefined ? {} : { portalId: { $gt: page.after } };
    const docs = await this.portals
      .find(filter)
      .sort({ portalId: 1 })
      .limit(page.limit + 1)
      .lean<PortalDocument[]>();
    return listingOf(docs.map(toPortal), page.limit);
  }

  async findById(portalId: number): Promise<Portal | null> {
    const doc = await this.portals.findOne({ portalId }).lean<PortalDocument>();
    return doc ? toPortal(doc) : null;
  }

  /** Keeps the ids an install found or made, for the connection it ran against. */
  async setEcommPipeline(portalId: number, kept: KeptEcommPipeline): Promise<boolean> {
    const ecommPipeline = { pipelineId: kept.pipelineId, stageIds: { ...kept.stageIds }, forConnection: kept.forConnection };
    return (await this.portals.updateOne({ portalId }, { $set: { ecommPipeline }, $unset: { ecommPipelineId: 1 } })).matchedCount === 1;
  }

  async setActive(portalId: number, active: boolean): Promise<boolean> {
    const result = await this.portals.updateOne({ portalId }, { $set: { active } });
    return result.matchedCount === 1;
  }

  /** Replaces the portal's connection (secrets sealed by the caller) and forgets its OAuth access token. */
  async setCrmConnection(portalId: number, connection: StoredCrmConnection): Promise<boolean> {
    assertSealed(connection);
    const result = await this.portals.updateOne({ portalId }, { $set: { crmConnection: connection }, $unset: { crmOAuthToken: '' } });
    return result.matchedCount === 1;
  }

  /**
   * Stores what an OAuth refresh answered, if the connection still holds the refresh token that was
   * used (another replica, or a new connection, may have replaced it meanwhile): false if not.
   */
  async saveOAuthRefresh(portalId: number, usedRefreshTokenSealed: string, refreshTokenSealed: string, token: StoredOAuthToken): Promise<boolean> {
    if (![refreshTokenSealed, token.accessTokenSealed].every(isSealed)) throw new Error('OAuth tokens must be sealed (SecretBox.seal)');
    const result = await this.portals.updateOne(
      { portalId, 'crmConnection.auth.refreshTokenSealed': usedRefreshTokenSealed },
      { $set: { 'crmConnection.auth.refreshTokenSealed': refreshTokenSealed, crmOAuthToken: token } },
    );
    return result.matchedCount === 1;
  }

  /** Portals after `afterPortalId` whose built-in CRM token is still in clear (written before decision 22), in portal order. */
  async withPlaintextCrmToken(limit = 1000, afterPortalId = 0): Promise<{ portalId: number; crmToken: string }[]> {
    const docs = await this.portals
      .find({ crmToken: { $exists: true }, portalId: { $gt: afterPortalId } }, { portalId: 1, crmToken: 1 })
      .sort({ portalId: 1 })
      .limit(limit)
      .lean<PortalDocument[]>();
    return docs.map((doc) => ({ portalId: doc.portalId, crmToken: doc.crmToken! }));
  }

  /** The sealed values of the portals after `afterPortalId`, `limit` portals at a time, in portal order; `last`: the last portal read (null: none left). */
  async sealedValues(
    afterPortalId: number,
    limit: number,
  ): Promise<{ values: { portalId: number; field: SealedPortalField; sealed: string }[]; last: number | null }> {
    const docs = await this.portals
      .find({ portalId: { $gt: afterPortalId } }, Object.fromEntries([['portalId', 1], ...SEALED_PORTAL_FIELDS.map((field) => [field, 1])]))
      .sort({ portalId: 1 })
      .limit(limit)
      .lean<PortalDocument[]>();
    const values = docs.flatMap((doc) =>
      SEALED_PORTAL_FIELDS.flatMap((field) => {
        const sealed = valueAt(doc, field);
        return typeof sealed === 'string' ? [{ portalId: doc.portalId, field, sealed }] : [];
      }),
    );
    return { values, last: docs.length > 0 ? docs[docs.length - 1].portalId : null };
  }

  /** Replaces one sealed value by another (sealed again), if it is still the one read; true if this call did it. */
  async replaceSealed(portalId: number, field: SealedPortalField, from: string, to: string): Promise<boolean> {
    if (!isSealed(to)) throw new Error('a sealed value must be replaced by a sealed value (SecretBox.seal)');
    return (await this.portals.updateOne({ portalId, [field]: from }, { $set: { [field]: to } })).modifiedCount === 1;
  }

  /** Replaces a token in clear by its sealed form, if it is still the same token; true if this call did it. */
  async sealCrmToken(portalId: number, plaintext: string, sealed: string): Promise<boolean> {
    if (!isSealed(sealed)) throw new Error('the built-in CRM token must be sealed (SecretBox.seal)');
    const result = await this.portals.updateOne({ portalId, crmToken: plaintext }, { $set: { crmTokenSealed: sealed }, $unset: { crmToken: '' } });
    return result.modifiedCount === 1;
  }
}

/** The fields of a portal document that hold a sealed secret (`reseal` walks them). */
export const SEALED_PORTAL_FIELDS = [
  'crmTokenSealed',
  'crmConnection.auth.tokenSealed',
  'crmConnection.auth.clientSecretSealed',
  'crmConnection.auth.refreshTokenSealed',
  'crmOAuthToken.accessTokenSealed',
] as const;
export type SealedPortalField = (typeof SEALED_PORTAL_FIELDS)[number];

/** What each sealed field of a portal is bound to (SecretBox context). */
export function sealedPortalFieldContext(portalId: number, field: SealedPortalField): string {
  switch (field) {
    case 'crmTokenSealed':
      return sealedFor.builtinCrmToken(portalId);
    case 'crmConnection.auth.tokenSealed':
      return sealedFor.crmConnection(portalId, 'token');
    case 'crmConnection.auth.clientSecretSealed':
      return sealedFor.crmConnection(portalId, 'client-secret');
    case 'crmConnection.auth.refreshTokenSealed':
      return sealedFor.crmConnection(portalId, 'refresh-token');
    case 'crmOAuthToken.accessTokenSealed':
      return sealedFor.crmConnection(portalId, 'access-token');
  }
}

const valueAt = (doc: object, field: string): unknown =>
  field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], doc);

function assertSealed(connection: StoredCrmConnection): void {
  if (connection.kind === 'builtin') return;
  const sealed =
    connection.auth.type === 'private-app' ? [connection.auth.tokenSealed] : [connection.auth.clientSecretSealed, connection.auth.refreshTokenSealed];
  if (!sealed.every(isSealed)) throw new Error('CRM connection secrets must be sealed (SecretBox.seal)');
}
