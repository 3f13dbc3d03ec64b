import type { ObjectType } from '@ecomm-sync/contracts';
import { HttpCrmClient, type CrmPort } from '@ecomm-sync/crm-client';
import type { Portal } from '@ecomm-sync/data-access';

/** One CRM client per portal and cached property definitions, so that a batch costs no extra reads. */
export class CrmDirectory {
  private readonly clients = new Map<number, { token: string; client: CrmPort }>();
  private readonly definitions = new Map<string, { at: number; names: Set<string> }>();

  constructor(
    private readonly options: { baseUrl: string; timeoutMs: number; propertyCacheMs: number },
    private readonly createClient: (token: string) => CrmPort = (token) =>
      new HttpCrmClient({ baseUrl: options.baseUrl, token, timeoutMs: options.timeoutMs }),
  ) {}

  clientFor(portal: Portal): CrmPort {
    const cached = this.clients.get(portal.portalId);
    if (cached && cached.token === portal.crmToken) return cached.client;
    const client = this.createClient(portal.crmToken);
    this.clients.set(portal.portalId, { token: portal.crmToken, client });
    return client;
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
