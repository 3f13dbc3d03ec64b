import { Router, type Response } from 'express';
import { AppError, parseWith } from '@ecomm-sync/http';
import type { AssociationStore } from '../data-access/association-store';
import { DEFAULT_ASSOCIATION_TYPES, type CrmType } from '../domain/object-types';
import { objectType } from './object-basic.routes';
import { validateAssociationBatchArchive, validateAssociationBatchRead, validateAssociations, validateAssociationSpecs } from './association-schemas';

/** The default (HUBSPOT_DEFINED) association type from one type to another, as the v4 API names it. */
function defaultType(from: CrmType, to: CrmType) {
  const typeId = DEFAULT_ASSOCIATION_TYPES[`${from}->${to}`];
  return typeId === undefined ? null : { category: 'HUBSPOT_DEFINED', typeId, label: null };
}

const id = (value: string | number, what: string): number => {
  const text = String(value);
  if (!/^[0-9]{1,15}$/.test(text)) throw AppError.badRequest(`${what} "${text.slice(0, 100)}" is not an object id`);
  return Number(text);
};

/**
 * The v4 associations API (the SDK's associations.v4 BasicApi and BatchApi) for the default
 * association types: create one or in batches (by the default type, or naming it), read, archive.
 * Labelled (USER_DEFINED) types are the hosted CRM's; here a create that names another type than
 * the default is refused with 400 saying so.
 */
export function associationRoutes(associations: AssociationStore, account: (res: Response) => { portalId: number }): Router {
  const router = Router();
  const timed = (startedAt: string, body: object) => ({ status: 'COMPLETE', ...body, startedAt, completedAt: new Date().toISOString() });

  /** Each pair both ways, with the association type it got. */
  const made = (from: CrmType, to: CrmType, pairs: { from: number; to: number }[]) => {
    const spec = (one: CrmType, other: CrmType) => {
      const type = defaultType(one, other);
      return type ? { associationSpec: { associationCategory: type.category, associationTypeId: type.typeId } } : {};
    };
    return pairs.flatMap((pair) => [
      { from: { id: String(pair.from) }, to: { id: String(pair.to) }, ...spec(from, to) },
      { from: { id: String(pair.to) }, to: { id: String(pair.from) }, ...spec(to, from) },
    ]);
  };

  /** What a read answers for one object: each associated object with its association type. */
  const associated = (from: CrmType, to: CrmType, ids: number[]) => {
    const type = defaultType(from, to);
    return ids.map((toObjectId) => ({ toObjectId, associationTypes: type ? [type] : [] }));
  };

  router.post('/crm/v4/associations/:from/:to/batch/associate/default', async (req, res) => {
    const startedAt = new Date().toISOString();
    const { inputs } = parseWith(validateAssociations, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const pairs = inputs.map((input) => ({ from: Number(input.from.id), to: Number(input.to.id) }));
    await associations.associate(account(res).portalId, from, to, pairs);
    res.json(timed(startedAt, { results: made(from, to, pairs) }));
  });

  router.put('/crm/v4/objects/:from/:fromId/associations/default/:to/:toId', async (req, res) => {
    const startedAt = new Date().toISOString();
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const pairs = [{ from: id(req.params.fromId, 'fromObjectId'), to: id(req.params.toId, 'toObjectId') }];
    await associations.associate(account(res).portalId, from, to, pairs);
    res.json(timed(startedAt, { results: made(from, to, pairs) }));
  });

  router.put('/crm/v4/objects/:from/:fromId/associations/:to/:toId', async (req, res) => {
    const specs = parseWith(validateAssociationSpecs, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const type = defaultType(from, to);
    const other = specs.find((spec) => spec.associationCategory !== 'HUBSPOT_DEFINED' || spec.associationTypeId !== type?.typeId);
    if (other)
      throw AppError.badRequest(
        `The built-in CRM makes the default association type only (${type ? `HUBSPOT_DEFINED ${type.typeId}` : 'none'} from ${from} to ${to}); ${other.associationCategory} ${other.associationTypeId} is not one`,
      );
    const pair = { from: id(req.params.fromId, 'objectId'), to: id(req.params.toId, 'toObjectId') };
    await associations.associate(account(res).portalId, from, to, [pair]);
    res.status(201).json({
      fromObjectTypeId: from,
      fromObjectId: pair.from,
      toObjectTypeId: to,
      toObjectId: pair.to,
      labels: [],
    });
  });

  router.get('/crm/v4/objects/:from/:fromId/associations/:to', async (req, res) => {
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const ids = await associations.of(account(res).portalId, from, id(req.params.fromId, 'objectId'), to);
    if (ids === null) throw AppError.notFound(`No ${from} with id ${String(req.params.fromId).slice(0, 100)}`);
    res.json({ results: associated(from, to, ids) });
  });

  router.delete('/crm/v4/objects/:from/:fromId/associations/:to/:toId', async (req, res) => {
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    await associations.dissociate(account(res).portalId, from, to, [{ from: id(req.params.fromId, 'objectId'), to: id(req.params.toId, 'toObjectId') }]);
    res.status(204).end();
  });

  router.post('/crm/v4/associations/:from/:to/batch/read', async (req, res) => {
    const startedAt = new Date().toISOString();
    const { inputs } = parseWith(validateAssociationBatchRead, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const results = [];
    for (const input of inputs) {
      const ids = await associations.of(account(res).portalId, from, id(input.id, 'inputs[].id'), to);
      if (ids !== null) results.push({ from: { id: String(input.id) }, to: associated(from, to, ids) });
    }
    res.json(timed(startedAt, { results }));
  });

  router.post('/crm/v4/associations/:from/:to/batch/archive', async (req, res) => {
    const { inputs } = parseWith(validateAssociationBatchArchive, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const pairs = inputs.flatMap((input) => input.to.map((target) => ({ from: id(input.from.id, 'from.id'), to: id(target.id, 'to[].id') })));
    await associations.dissociate(account(res).portalId, from, to, pairs);
    res.status(204).end();
  });

  return router;
}
