import type { ObjectType } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import type { CrmConnections } from '@ecomm-sync/crm-connections';
import type { Portal } from '@ecomm-sync/data-access';
import { keyOf, TtlCache } from '@ecomm-sync/util';

/**
 * Each portal's CRM port, through its connection (CrmConnections caches the clients), and cached
 * property definitions, so that a batch costs no extra reads.
 */
export class CrmDirectory {
  private readonly definitions: TtlCache<Set<string>>;

  constructor(
    private readonly connections: Pick<CrmConnections, 'clientFor' | 'forget'>,
    options: { propertyCacheMs: number; clock?: () => number },
  ) {
    this.definitions = new TtlCache(options.propertyCacheMs, undefined, options.clock);
  }

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
    const key = keyOf(portal.portalId, type);
    let readNow = false;
    const read = async () => {
      readNow = true;
      return new Set((await this.clientFor(portal).listProperties(type)).map((property) => property.name));
    };
    const names = await this.definitions.get(key, read);
    if (readNow || [...needed].every((name) => names.has(name))) return names;
    this.definitions.delete(key);
    return this.definitions.get(key, read);
  }
}
