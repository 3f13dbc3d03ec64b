import { Router, type Request, type Response } from 'express';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import { createWithAssociations } from '../data-access/create-with-associations';
import type { CrmStore, StoredObject } from '../data-access/crm-store';
import { isCrmType, type CrmType } from '../domain/object-types';
import { present } from './present';
import { validateOneObject, validateOneObjectUpdate } from './schemas';

/** The most objects one page of the list holds, as in the hosted CRM. */
const MAX_PAGE = 100;

export function objectType(req: Request, param = 'type'): CrmType {
  const value = String(req.params[param]);
  if (!isCrmType(value)) throw AppError.notFound(`Unknown object type "${value}"; use contacts, deals, products or line_items`);
  return value;
}

/**
 * A list query parameter as the hosted CRM reads it: repeated (`properties=a&properties=b`, what
 * the vendor's SDK sends) or comma-separated (`properties=a,b`), or both.
 */
export function listParam(value: unknown): string[] | undefined {
  const values = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
  const items = values
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

const objectId = (value: string): number => {
  if (!/^[0-9]{1,15}$/.test(value))
    throw AppError.notFound(`No object with id "${value.slice(0, 100)}"; to find one by another property, name it in idProperty`);
  return Number(value);
};

/**
 * The basic objects API of the public CRM v3 API (the SDK's BasicApi): create (with associations),
 * read (by id or by a unique property with `idProperty`, with `propertiesWithHistory`), update,
 * archive and list one object type.
 */
export function objectBasicRoutes(store: CrmStore, account: (res: Response) => { portalId: number }): Router {
  const router = Router();

  /** The live object an id (or, with idProperty, a unique value) names; 404 otherwise. */
  const find = async (req: Request, res: Response, options: { withHistory?: boolean } = {}): Promise<StoredObject> => {
    const type = objectType(req);
    const portalId = account(res).portalId;
    const value = String(req.params.id);
    const idProperty = typeof req.query.idProperty === 'string' && req.query.idProperty !== '' ? req.query.idProperty : undefined;
    const found = idProperty
      ? (await store.objects.readByProperty(portalId, type, idProperty, [value], options)).get(value)
      : (await store.objects.read(portalId, type, [objectId(value)], options))[0];
    if (!found) throw AppError.notFound(`No ${type} with ${idProperty ?? 'id'} ${value.slice(0, 100)}`);
    return found;
  };

  /** The objects with the ids of their associations of the types `associations=` asks for (none asked: as read). */
  const withAssociations = async (res: Response, objects: StoredObject[], types: string[] | undefined): Promise<StoredObject[]> => {
    if (!types || objects.length === 0) return objects;
    const ids = await store.associations.idsOf(
      account(res).portalId,
      objects.map((object) => object.id),
      types,
    );
    return objects.map((object) => ({ ...object, associations: ids.get(object.id) }));
  };

  router.post('/crm/v3/objects/:type', async (req, res) => {
    const body = parseWith(validateOneObject, req.body);
    const [created] = await createWithAssociations(store, account(res).portalId, objectType(req), [body]);
    res.status(201).json(present(created));
  });

  router.get('/crm/v3/objects/:type', async (req, res) => {
    const limit = Math.min(MAX_PAGE, Math.max(1, Number(req.query.limit ?? 10) || 10));
    const after = typeof req.query.after === 'string' && /^[0-9]{1,15}$/.test(req.query.after) ? Number(req.query.after) : 0;
    const withHistory = listParam(req.query.propertiesWithHistory);
    const page = await store.objects.page(account(res).portalId, objectType(req), limit + 1, after, { withHistory: !!withHistory });
    const associations = listParam(req.query.associations);
    const shown = await withAssociations(res, page.slice(0, limit), associations);
    const results = shown.map((object) => present(object, listParam(req.query.properties), associations, withHistory));
    const last = page[limit - 1];
    res.json({ results, ...(page.length > limit && last ? { paging: { next: { after: String(last.id) } } } : {}) });
  });

  router.get('/crm/v3/objects/:type/:id', async (req, res) => {
    const withHistory = listParam(req.query.propertiesWithHistory);
    const associations = listParam(req.query.associations);
    const [object] = await withAssociations(res, [await find(req, res, { withHistory: !!withHistory })], associations);
    res.json(present(object, listParam(req.query.properties), associations, withHistory));
  });

  router.patch('/crm/v3/objects/:type/:id', async (req, res) => {
    const body = parseWith(validateOneObjectUpdate, req.body);
    const object = await find(req, res);
    const [updated] = await store.objects.update(account(res).portalId, objectType(req), [{ id: object.id, properties: body.properties }]);
    res.json(present(updated));
  });

  router.delete('/crm/v3/objects/:type/:id', async (req, res) => {
    const value = String(req.params.id);
    // As the hosted CRM: archiving what is archived or unknown answers 204 too.
    if (/^[0-9]{1,15}$/.test(value)) await store.objects.archive(account(res).portalId, objectType(req), [Number(value)]);
    res.status(204).end();
  });

  return router;
}
