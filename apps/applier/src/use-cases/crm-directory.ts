import type { ObjectType } from '@ecomm-sync/contracts';
import type { CrmConnections, CrmPort } from '@ecomm-sync/crm-client';
import { connectionVersionOf, type Portal, type SharedPropertyNames } from '@ecomm-sync/data-access';
import { keyOf, keyPrefixOf, TtlCache } from '@ecomm-sync/domain';

/** How long a replica that did not get to read a key's names waits for the one that did, at most. */
const SHARED_READ_WAIT_MS = 2_000;
const SHARED_READ_POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CrmDirectoryOptions {
  propertyCacheMs: number;
  clock?: () => number;
  /**
   * Property names kept for every replica: a replica whose own cache is out of date takes them from
   * there while they are younger than the cache time, and only one replica at a time reads them
   * from the CRM (absent: each replica reads for itself).
   */
  shared?: SharedPropertyNames;
}

/**
 * Each portal's CRM port, through its connection (CrmConnections caches the clients), and cached
 * property definitions, so that a batch costs no extra reads, and (with `shared`) so that one read
 * of the CRM serves every replica.
 */
export class CrmDirectory {
  private readonly definitions: TtlCache<Set<string>>;
  private readonly clock: () => number;

  constructor(
    private readonly connections: Pick<CrmConnections, 'clientFor' | 'forget'>,
    private readonly options: CrmDirectoryOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.definitions = new TtlCache(options.propertyCacheMs, undefined, options.clock);
  }

  clientFor(portal: Portal): CrmPort {
    return this.connections.clientFor(portal);
  }

  /**
   * Drops cached clients and definitions (a connection may have changed: the gateway broadcasts it):
   * one portal's (its ecommerce install set up its pipelines and properties again), or every one.
   */
  forget(portalId?: number): void {
    this.connections.forget(portalId);
    if (portalId === undefined) this.definitions.clear();
    else this.definitions.deleteStartingWith(keyPrefixOf(portalId));
  }

  /**
   * Property names the portal's CRM defines. Cached; re-read when older than the cache time, or when
   * a name the caller needs is missing (it may have just been created): one request per batch, and
   * only while a mapping names a property the CRM lacks.
   */
  async definedProperties(portal: Portal, type: ObjectType, needed: Iterable<string> = []): Promise<Set<string>> {
    const key = keyOf(portal.portalId, type);
    const wanted = [...needed];
    let readNow = false;
    const read = async (fromCrm: boolean) => {
      readNow = true;
      return new Set(await this.readNames(portal, type, wanted, fromCrm));
    };
    const names = await this.definitions.get(key, () => read(false));
    if (readNow || wanted.every((name) => names.has(name))) return names;
    this.definitions.delete(key);
    return this.definitions.get(key, () => read(true));
  }

  /**
   * The names from the shared keeping when they are young enough and hold what is needed (unless
   * `fromCrm`: a needed name was missing from them); else from the CRM, read by one replica at a
   * time: another that finds the read taken waits a little for its result before it reads itself.
   */
  private async readNames(portal: Portal, type: ObjectType, needed: readonly string[], fromCrm: boolean): Promise<string[]> {
    const { shared, propertyCacheMs } = this.options;
    const sharedKey = `${portal.portalId}:${connectionVersionOf(portal)}:${type}`;
    const usable = (names: string[] | null) => names !== null && needed.every((name) => names.includes(name));
    if (shared && !fromCrm) {
      const kept = await shared.fresh(sharedKey, this.clock() - propertyCacheMs);
      if (kept !== null) {
        if (usable(kept)) return kept;
        // Young names that lack a needed one: it may have just been made, so the CRM is read.
      } else if (!(await shared.claimRead(sharedKey, this.clock(), SHARED_READ_WAIT_MS))) {
        for (let waited = 0; waited < SHARED_READ_WAIT_MS; waited += SHARED_READ_POLL_MS) {
          await sleep(SHARED_READ_POLL_MS);
          const theirs = await shared.fresh(sharedKey, this.clock() - propertyCacheMs);
          if (theirs !== null) {
            if (usable(theirs)) return theirs;
            break;
          }
        }
      }
    }
    const readAt = this.clock();
    const names = (await this.clientFor(portal).listProperties(type)).map((property) => property.name);
    await shared?.save(sharedKey, names, readAt);
    return names;
  }
}
