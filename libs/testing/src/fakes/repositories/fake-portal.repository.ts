import {
  isSealed,
  type KeptEcommPipeline,
  type Listing,
  type ListingPage,
  type Portal,
  type PortalRepository,
  type SealedPortalField,
  type StoredCrmConnection,
  type StoredOAuthToken,
} from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';

function assertSealed(connection: StoredCrmConnection): void {
  if (connection.kind === 'builtin') return;
  const sealed =
    connection.auth.type === 'private-app' ? [connection.auth.tokenSealed] : [connection.auth.clientSecretSealed, connection.auth.refreshTokenSealed];
  if (!sealed.every(isSealed)) throw new Error('CRM connection secrets must be sealed (SecretBox.seal)');
}

/** PortalRepository in memory: portals by id; secrets must come sealed, as the real one demands. */
export class FakePortalRepository implements PublicOf<PortalRepository> {
  private readonly portals = new Map<number, Portal>();
  private sequence = 0;

  /** Test setup: stores a portal as given (aPortal() builds one; its token may be in clear, as before decision 22). */
  put(portal: Portal): Portal {
    this.portals.set(portal.portalId, copy(portal));
    return portal;
  }

  async nextPortalId(): Promise<number> {
    return 1_000_000 + ++this.sequence;
  }

  async create(portal: { portalId: number; name: string; crmTokenSealed: string }): Promise<Portal> {
    if (!isSealed(portal.crmTokenSealed)) throw new Error('the built-in CRM token must be sealed (SecretBox.seal)');
    if (this.portals.has(portal.portalId)) throw new Error(`E11000 duplicate key error: portalId ${portal.portalId}`);
    return copy(
      this.put({
        portalId: portal.portalId,
        name: portal.name,
        active: true,
        builtinCrmToken: { sealed: portal.crmTokenSealed },
        crmConnection: null,
        crmOAuthToken: null,
        ecommPipeline: null,
      }),
    );
  }

  async list(page: ListingPage<number>): Promise<Listing<Portal>> {
    const after = page.after;
    const found = [...this.portals.values()].filter((portal) => after === undefined || portal.portalId > after).sort((a, b) => a.portalId - b.portalId);
    return { results: found.slice(0, page.limit).map(copy), hasMore: found.length > page.limit };
  }

  async findById(portalId: number): Promise<Portal | null> {
    const portal = this.portals.get(portalId);
    return portal ? copy(portal) : null;
  }

  async setEcommPipeline(portalId: number, kept: KeptEcommPipeline): Promise<boolean> {
    const portal = this.portals.get(portalId);
    if (portal) portal.ecommPipeline = { pipelineId: kept.pipelineId, stageIds: { ...kept.stageIds }, forConnection: kept.forConnection };
    return portal !== undefined;
  }

  async setActive(portalId: number, active: boolean): Promise<boolean> {
    const portal = this.portals.get(portalId);
    if (portal) portal.active = active;
    return portal !== undefined;
  }

  async setCrmConnection(portalId: number, connection: StoredCrmConnection): Promise<boolean> {
    assertSealed(connection);
    const portal = this.portals.get(portalId);
    if (!portal) return false;
    portal.crmConnection = copy(connection);
    portal.crmOAuthToken = null;
    return true;
  }

  async saveOAuthRefresh(portalId: number, usedRefreshTokenSealed: string, refreshTokenSealed: string, token: StoredOAuthToken): Promise<boolean> {
    if (![refreshTokenSealed, token.accessTokenSealed].every(isSealed)) throw new Error('OAuth tokens must be sealed (SecretBox.seal)');
    const connection = this.portals.get(portalId)?.crmConnection;
    if (connection?.kind !== 'hosted' || connection.auth.type !== 'oauth' || connection.auth.refreshTokenSealed !== usedRefreshTokenSealed) return false;
    connection.auth.refreshTokenSealed = refreshTokenSealed;
    this.portals.get(portalId)!.crmOAuthToken = copy(token);
    return true;
  }

  /** Not in the contract (its real side needs a document written before decision 22): not faked. */
  async withPlaintextCrmToken(): Promise<{ portalId: number; crmToken: string }[]> {
    throw new Error('FakePortalRepository.withPlaintextCrmToken is not faked: add it to the contract first');
  }

  /** Not in the contract (its real side needs a document written before decision 22): not faked. */
  async sealedValues(): Promise<{ values: { portalId: number; field: SealedPortalField; sealed: string }[]; last: number | null }> {
    throw new Error('FakePortalRepository.sealedValues is not faked: the reseal command is tested against MongoDB');
  }

  async replaceSealed(): Promise<boolean> {
    throw new Error('FakePortalRepository.replaceSealed is not faked: the reseal command is tested against MongoDB');
  }

  async sealCrmToken(): Promise<boolean> {
    throw new Error('FakePortalRepository.sealCrmToken is not faked: add it to the contract first');
  }
}
