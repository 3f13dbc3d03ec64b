import { CRM_OBJECT_PATHS, type ObjectType } from '@ecomm-sync/contracts';
import { SYNC_KEY_PROPERTY } from '@ecomm-sync/domain';
import { crmObjectKey } from './crm-exchange';

const TYPE_OF_PATH = new Map<string, ObjectType>(Object.entries(CRM_OBJECT_PATHS).map(([type, path]) => [path, type as ObjectType]));

/** `/crm/v3/objects/{type}/batch/{operation}` and `/crm/v3/objects/{type}/search`. */
const OBJECTS_PATH = /^\/crm\/v3\/objects\/([a-z_]+)\/(?:batch\/[a-z]+|search)(?:\?|$)/;
/** `/crm/v4/associations/{from}/{to}/batch/…`. */
const ASSOCIATIONS_PATH = /^\/crm\/v4\/associations\/([a-z_]+)\/([a-z_]+)\/batch\//;

type Input = { id?: unknown; idProperty?: unknown; properties?: Record<string, unknown> | null; from?: { id?: unknown }; to?: { id?: unknown } };

const listOf = (body: unknown, field: 'inputs' | 'results'): Input[] => {
  const list = (body as Record<string, unknown> | null | undefined)?.[field];
  return Array.isArray(list) ? (list.filter((item) => item !== null && typeof item === 'object') as Input[]) : [];
};

const numericId = (id: unknown): number | null => {
  const n = typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  return n !== null && n > 0 ? n : null;
};

/**
 * The objects a request carried, by what the client wrote and the CRM answered: for each batch
 * input, its sync key (the input's unique id when it is the sync key, else its sync-key property)
 * and its CRM id; for each result, its CRM id; for associations, both ends' CRM ids. The external id is not in what
 * is sent: the console finds an object's exchanges by the keys its sync record gives (decision
 * 0051). Requests about the CRM's setup (properties, pipelines) carry no object. Bodies are parsed JSON.
 */
export function objectsCarried(path: string, requestBody: unknown, answerBody: unknown): string[] {
  const keys = new Set<string>();
  const objects = OBJECTS_PATH.exec(path);
  const type = objects ? TYPE_OF_PATH.get(objects[1]) : undefined;
  if (type) {
    const noteCrmId = (id: unknown) => {
      const crmId = numericId(id);
      if (crmId !== null) keys.add(crmObjectKey(type, 'crm', crmId));
    };
    for (const input of listOf(requestBody, 'inputs')) {
      const syncKey = input.idProperty === SYNC_KEY_PROPERTY ? input.id : input.properties?.[SYNC_KEY_PROPERTY];
      if (typeof syncKey === 'string' && syncKey !== '') keys.add(crmObjectKey(type, 'key', syncKey));
      // An input's id is a CRM id unless it is the value of a unique property (idProperty).
      if (input.idProperty === undefined) noteCrmId(input.id);
    }
    // From results their CRM ids only: a result holds the object's stored sync-key property, which names the tenant
    // that wrote it last (a portal's contact may be several tenants'), not the one whose batch this is.
    for (const result of listOf(answerBody, 'results')) noteCrmId(result.id);
    return [...keys];
  }
  const associations = ASSOCIATIONS_PATH.exec(path);
  const [from, to] = associations ? [TYPE_OF_PATH.get(associations[1]), TYPE_OF_PATH.get(associations[2])] : [];
  if (!from || !to) return [];
  for (const input of listOf(requestBody, 'inputs')) {
    const fromId = numericId(input.from?.id);
    const toId = numericId(input.to?.id);
    if (fromId !== null) keys.add(crmObjectKey(from, 'crm', fromId));
    if (toId !== null) keys.add(crmObjectKey(to, 'crm', toId));
  }
  return [...keys];
}
