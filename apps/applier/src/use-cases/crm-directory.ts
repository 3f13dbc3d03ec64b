import type { ObjectType } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import type { CrmConnections } from '@ecomm-sync/crm-connections';
import type { Portal } from '@ecomm-sync/data-access';

/**
 * Each portal's CRM port, through its connection (CrmConnections caches the clients), and cached
 * property definitions, so that a batch costs no extra reads.
 */
export class CrmDirectory {
  private readonly definitions = new Map<string, { at: number; names: Set<string> }>();

  constructor(
    private readonly connections: Pick<CrmConnections, 'clientFor' | 'forget'>,
    private readonly options: { propertyCacheMs: number },
  ) {}

  clientFor(portal: Portal): CrmPort {
    return this.connections.clientFor(portal);
  }

  /** Drops cached clients and definitions (a connection may have changed: the gateway broadcasts it). */
  forget(): void {
    this.connections.forget();
    this.definitions.clear();
  }

  /**
   * Property names the portal's CRM defines. Cached; re-read when older than the cache time, or when
   * a name the caller needs is missing (it may have just been created): one request per batch, and
   * only while a mapping names a property the CRM lacks.
   */
  async definedProperties(portal: Portal, type: ObjectType, needed: Iterable<string> = []): Promise<Set<string>> {
    const key = `${portal.portalId}:${type}`;
    const cached = this.definitions.get(key);
    const fresh = cached && Date.now() - cached.at < this.options.propertyCacheMs;
    if (fresh && [...needed].every((name) => cached.names.has(name))) return cached.names;
    const names = new Set((await this.clientFor(portal).listProperties(type)).map((property) => property.name));
    this.definitions.set(key, { at: Date.now(), names });
    return names;
  }
}
