import { Router, type Response } from 'express';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import type { Associated, AssociationPair, AssociationStore } from '../data-access/association-store';
import { defaultType } from '../domain/association-labels';
import type { CrmType } from '../domain/object-types';
import { objectType } from './object-basic.routes';
import {
  validateAssociationBatchArchive,
  validateAssociationBatchRead,
  validateAssociations,
  validateAssociationSpecs,
  validateAssociationTyped,
} from './association-schemas';

const id = (value: string | number, what: string): number => {
  const text = String(value);
  if (!/^[0-9]{1,15}$/.test(text)) throw AppError.badRequest(`${what} "${text.slice(0, 100)}" is not an object id`);
  return Number(text);
};

/**
 * The v4 associations API (the SDK's associations.v4 BasicApi and BatchApi): create one or in
 * batches (by the default type, or naming types: the default and the portal's labels), read each
 * association with its types, take labels off, archive. A type that is neither: 400 naming it.
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

  /** What a read answers for one object: each associated object with its association types. */
  const associated = (found: Associated[]) => found.map(({ id: toObjectId, types }) => ({ toObjectId, associationTypes: types }));

  /** What a create naming types answers for each pair: the pair and its labels (the SDK's LabelsBetweenObjectPair). */
  const labelled = async (portalId: number, from: CrmType, to: CrmType, pairs: AssociationPair[]) => {
    const labels = await associations.labelsOf(portalId, from, to, pairs);
    return pairs.map((pair, i) => ({ fromObjectTypeId: from, fromObjectId: pair.from, toObjectTypeId: to, toObjectId: pair.to, labels: labels[i] }));
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
    const types = parseWith(validateAssociationSpecs, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const pair = { from: id(req.params.fromId, 'objectId'), to: id(req.params.toId, 'toObjectId'), types };
    await associations.associate(account(res).portalId, from, to, [pair]);
    const [answer] = await labelled(account(res).portalId, from, to, [pair]);
    res.status(201).json(answer);
  });

  router.post('/crm/v4/associations/:from/:to/batch/create', async (req, res) => {
    const startedAt = new Date().toISOString();
    const { inputs } = parseWith(validateAssociationTyped, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const pairs = inputs.map((input) => ({ from: id(input.from.id, 'from.id'), to: id(input.to.id, 'to.id'), types: input.types }));
    await associations.associate(account(res).portalId, from, to, pairs);
    res.status(201).json(timed(startedAt, { results: await labelled(account(res).portalId, from, to, pairs) }));
  });

  router.post('/crm/v4/associations/:from/:to/batch/labels/archive', async (req, res) => {
    const { inputs } = parseWith(validateAssociationTyped, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const pairs = inputs.map((input) => ({ from: id(input.from.id, 'from.id'), to: id(input.to.id, 'to.id'), types: input.types }));
    await associations.archiveLabels(account(res).portalId, from, to, pairs);
    res.status(204).end();
  });

  router.get('/crm/v4/objects/:from/:fromId/associations/:to', async (req, res) => {
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const found = await associations.of(account(res).portalId, from, id(req.params.fromId, 'objectId'), to);
    if (found === null) throw AppError.notFound(`No ${from} with id ${String(req.params.fromId).slice(0, 100)}`);
    res.json({ results: associated(found) });
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
      const found = await associations.of(account(res).portalId, from, id(input.id, 'inputs[].id'), to);
      if (found !== null) results.push({ from: { id: String(input.id) }, to: associated(found) });
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
