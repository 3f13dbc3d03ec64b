import { Router, type Request, type Response } from 'express';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import type { AssociationLabelStore } from '../data-access/association-label-store';
import { typesBetween } from '../domain/association-labels';
import { objectType } from './object-basic.routes';
import { validateAssociationLabel, validateAssociationLabelUpdate } from './association-schemas';

/**
 * The association labels of a portal (the SDK's associations.v4.schema DefinitionsApi): the types
 * between two object types (the default, then the portal's labels), new labels, renames and deletes.
 * A label has a type id per direction; a paired label names the other direction with `inverseLabel`.
 */
export function associationLabelRoutes(labels: AssociationLabelStore, account: (res: Response) => { portalId: number }): Router {
  const router = Router();

  router.get('/crm/v4/associations/:from/:to/labels', async (req, res) => {
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    res.json({ results: typesBetween(await labels.between(account(res).portalId, from, to), from, to) });
  });

  router.post('/crm/v4/associations/:from/:to/labels', async (req, res) => {
    const body = parseWith(validateAssociationLabel, req.body);
    const [from, to] = [objectType(req, 'from'), objectType(req, 'to')];
    const made = await labels.create(account(res).portalId, from, to, body);
    // Both directions' types, from → to first (the SDK's CollectionResponseAssociationSpecWithLabelNoPaging).
    res.json({
      results: [
        { category: 'USER_DEFINED', typeId: made.typeId, label: made.label },
        { category: 'USER_DEFINED', typeId: made.typeId + 1, label: made.inverseLabel ?? made.label },
      ],
    });
  });

  // Renamed and deleted by the type id of either direction; 204 as the SDK's update and remove expect.
  router.put('/crm/v4/associations/:from/:to/labels', async (req, res) => {
    const body = parseWith(validateAssociationLabelUpdate, req.body);
    await labels.rename(account(res).portalId, objectType(req, 'from'), objectType(req, 'to'), body);
    res.status(204).end();
  });

  router.delete('/crm/v4/associations/:from/:to/labels/:associationTypeId', async (req, res) => {
    await labels.remove(account(res).portalId, objectType(req, 'from'), objectType(req, 'to'), typeIdParam(req));
    res.status(204).end();
  });

  return router;
}

/** The path's association type id (an int32, as the SDK's models have it). */
function typeIdParam(req: Request): number {
  const raw = String(req.params.associationTypeId);
  if (!/^[0-9]{1,9}$/.test(raw)) throw AppError.badRequest(`associationTypeId must be a whole number, not "${raw}"`);
  return Number(raw);
}
