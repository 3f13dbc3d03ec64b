import { Router, type Response } from 'express';
import { AppError, parseWith, staticBearerAuth } from '@ecomm-sync/runtime';
import type { Account, CrmStore, StoredObject } from '../data-access/crm-store';
import type { HostedLimits } from '../domain/hosted-limits';
import { markedInputError, splitMarkedInputs, type TracedInput } from '../domain/marked-inputs';
import { searchBoundsProblem } from '../domain/crm-search';
import { duplicateIdsError } from '../domain/duplicate-ids';
import type { RequestLedger } from '../limits/request-ledger';
import { validateAccount, validateCreate, validateIds, validateRead, validateSearch, validateUpdate, validateUpsert } from './schemas';
import { portalTokenAuth } from './auth';
import { pipelineRoutes } from './pipeline.routes';
import { validateProperty, validatePropertyGroup } from './setup-schemas';
import { associationRoutes } from './association.routes';
import { associationLabelRoutes } from './association-label.routes';
import { createWithAssociations } from '../data-access/create-with-associations';
import { objectBasicRoutes, objectType } from './object-basic.routes';
import { present, presentProperty } from './present';
import { hostedLimits, limitsOf } from './hosted-limits.middleware';
import { limitsAdminRoutes } from './limits-admin.routes';
import { oauthAdminRoutes } from './oauth-admin.routes';

/**
 * A batch write of the inputs not marked invalid by the account's marker: answered as usual when
 * none is marked, else 207 with the applied ones and an error per marked input (hosted shape).
 */
async function writeBatch<I extends TracedInput, O extends StoredObject>(
  res: Response,
  okStatus: number,
  inputs: I[],
  write: (inputs: I[]) => Promise<O[]>,
  show: (object: O) => Record<string, unknown> = (object) => present(object),
): Promise<void> {
  const startedAt = new Date().toISOString();
  const marker = limitsOf(res)?.invalidMarker;
  const { valid, marked } = splitMarkedInputs(inputs, marker);
  const results = (valid.length > 0 ? await write(valid) : []).map(show);
  const timing = { startedAt, completedAt: new Date().toISOString() };
  if (marked.length === 0) {
    res.status(okStatus).json({ status: 'COMPLETE', results, ...timing });
    return;
  }
  const errors = marked.map(({ input, property }) => markedInputError(input, property, marker!));
  res.status(207).json({ status: 'COMPLETE', results, numErrors: errors.length, errors, ...timing });
}

/** The hosted CRM refuses an update or upsert batch naming one record twice, whole (duplicate-ids.ts). */
function refuseDuplicateIds(inputs: readonly { id: string | number }[]): void {
  const error = duplicateIdsError(inputs.map((input) => String(input.id)));
  if (error) throw error;
}

export interface CrmRoutesOptions {
  adminToken: string;
  defaultPipelineLimit: number;
  /** What limited accounts used, in this process. */
  ledger: RequestLedger;
  /** The limits of accounts without their own; null: none (the default). */
  environmentLimits: HostedLimits | null;
  /** The time OAuth access tokens expire by. */
  clock: () => number;
}

/** The objects API of the built-in CRM, in the shape of the public CRM v3 API. */
export function crmRoutes(store: CrmStore, { adminToken, defaultPipelineLimit, ledger, environmentLimits, clock }: CrmRoutesOptions): Router {
  const router = Router();
  const account = (res: { locals: Record<string, unknown> }) => res.locals.account as Account;
  const adminAuth = staticBearerAuth(adminToken, 'The CRM admin API');

  // Admin: accounts (one per portal of the sync service), the hosted limits they emulate, their OAuth clients.
  router.use(limitsAdminRoutes(store.accounts, ledger, environmentLimits, adminAuth));
  router.use(oauthAdminRoutes(store.oauth, adminAuth));
  router.put('/crm/admin/v1/accounts/:portalId', adminAuth, async (req, res) => {
    const portalId = Number(req.params.portalId);
    if (!Number.isInteger(portalId) || portalId < 1) throw AppError.badRequest('portalId must be a positive integer');
    const body = parseWith(validateAccount, req.body);
    const created = await store.accounts.ensureAccount(portalId, body.token, body.pipelineLimit ?? defaultPipelineLimit);
    if (body.pipelineLimit !== undefined) await store.accounts.setPipelineLimit(portalId, body.pipelineLimit);
    res.json({ portalId: created.portalId, pipelineLimit: body.pipelineLimit ?? created.pipelineLimit });
  });

  router.use('/crm', portalTokenAuth(store.accounts, store.oauth, clock));
  router.use('/crm', hostedLimits(ledger, environmentLimits));

  router.post('/crm/v3/objects/:type/batch/create', async (req, res) => {
    const { inputs } = parseWith(validateCreate, req.body);
    const type = objectType(req);
    await writeBatch(res, 201, inputs, (valid) => createWithAssociations(store, account(res).portalId, type, valid));
  });

  router.post('/crm/v3/objects/:type/batch/update', async (req, res) => {
    const { inputs } = parseWith(validateUpdate, req.body);
    refuseDuplicateIds(inputs);
    const type = objectType(req);
    await writeBatch(res, 200, inputs, (valid) => store.objects.update(account(res).portalId, type, valid));
  });

  router.post('/crm/v3/objects/:type/batch/upsert', async (req, res) => {
    const { inputs } = parseWith(validateUpsert, req.body);
    refuseDuplicateIds(inputs);
    const type = objectType(req);
    // Each result says whether the upsert made it (`new`), as the hosted CRM's does.
    await writeBatch(
      res,
      200,
      inputs,
      (valid) => store.objects.upsert(account(res).portalId, type, valid),
      (object) => ({ ...present(object), new: object.created }),
    );
  });

  router.post('/crm/v3/objects/:type/batch/archive', async (req, res) => {
    const { inputs } = parseWith(validateIds, req.body);
    await store.objects.archive(
      account(res).portalId,
      objectType(req),
      inputs.map((input) => Number(input.id)),
    );
    res.status(204).end();
  });

  router.post('/crm/v3/objects/:type/batch/read', async (req, res) => {
    const startedAt = new Date().toISOString();
    const { inputs, properties, idProperty, propertiesWithHistory } = parseWith(validateRead, req.body);
    const type = objectType(req);
    const values = inputs.map((input) => String(input.id));
    const withHistory = { withHistory: (propertiesWithHistory ?? []).length > 0 };
    const show = (object: StoredObject) => present(object, properties, undefined, propertiesWithHistory);
    if (idProperty === undefined) {
      const bad = values.findIndex((value) => !/^[0-9]{1,15}$/.test(value));
      if (bad >= 0)
        throw AppError.badRequest(`inputs[${bad}].id "${values[bad].slice(0, 100)}" is not an object id; to read by another property, name it in idProperty`);
      const results = await store.objects.read(account(res).portalId, type, values.map(Number), withHistory);
      res.json({ status: 'COMPLETE', results: results.map(show), startedAt, completedAt: new Date().toISOString() });
      return;
    }
    // As the hosted CRM: the objects found, and a 207 naming the values nothing was found for.
    const found = await store.objects.readByProperty(account(res).portalId, type, idProperty, values, withHistory);
    const results = [...new Map([...found.values()].map((object) => [object.id, object])).values()].map(show);
    const missing = [...new Set(values.filter((value) => !found.has(value)))];
    const timing = { startedAt, completedAt: new Date().toISOString() };
    if (missing.length === 0) {
      res.json({ status: 'COMPLETE', results, ...timing });
      return;
    }
    const error = {
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      message: `Could not get some ${type} objects, they may be deleted or not exist. Check that ids are valid.`,
      context: { ids: missing },
    };
    res.status(207).json({ status: 'COMPLETE', results, numErrors: 1, errors: [error], ...timing });
  });

  router.post('/crm/v3/objects/:type/search', async (req, res) => {
    const body = parseWith(validateSearch, req.body ?? {});
    const text = (value: unknown) => (value === undefined ? undefined : String(value));
    const filterGroups = (body.filterGroups ?? []).map((group) => ({
      filters: group.filters.map((filter) => ({
        propertyName: filter.propertyName,
        operator: filter.operator,
        value: text(filter.value),
        highValue: text(filter.highValue),
        values: filter.values?.map(String),
      })),
    }));
    const sorts = (body.sorts ?? []).map((sort) =>
      typeof sort === 'string'
        ? { propertyName: sort.replace(/^-/, ''), direction: sort.startsWith('-') ? ('DESCENDING' as const) : ('ASCENDING' as const) }
        : { propertyName: sort.propertyName, direction: sort.direction ?? ('ASCENDING' as const) },
    );
    const limit = body.limit ?? 10;
    const after = Number(body.after ?? 0);
    const bounds = searchBoundsProblem({ filterGroups, limit, after, sorts });
    if (bounds) throw AppError.badRequest(`The search ${bounds}`);
    const { total, results } = await store.objects.search(account(res).portalId, objectType(req), { filterGroups, sorts }, limit, after);
    res.json({
      total,
      results: results.map((object) => present(object, body.properties)),
      ...(total > after + limit ? { paging: { next: { after: String(after + limit) } } } : {}),
    });
  });

  router.use(objectBasicRoutes(store, account));

  router.get('/crm/v3/properties/:type', async (req, res) => {
    res.json({ results: (await store.properties.listProperties(account(res).portalId, objectType(req))).map(presentProperty) });
  });

  router.post('/crm/v3/properties/:type', async (req, res) => {
    const body = parseWith(validateProperty, req.body);
    const created = await store.properties.createProperty(account(res).portalId, objectType(req), {
      name: body.name,
      label: body.label,
      type: body.type,
      fieldType: body.fieldType,
      groupName: body.groupName,
      hasUniqueValue: body.hasUniqueValue ?? false,
      options: (body.options ?? []).map((option, index) => ({
        label: option.label,
        value: option.value,
        displayOrder: option.displayOrder ?? index,
        hidden: option.hidden ?? false,
      })),
    });
    res.status(201).json(presentProperty(created));
  });

  router.get('/crm/v3/properties/:type/groups', async (req, res) => {
    res.json({ results: (await store.properties.listGroups(account(res).portalId, objectType(req))).map((group) => ({ ...group, archived: false })) });
  });

  router.post('/crm/v3/properties/:type/groups', async (req, res) => {
    const body = parseWith(validatePropertyGroup, req.body);
    res.status(201).json({ ...(await store.properties.createGroup(account(res).portalId, objectType(req), body)), archived: false });
  });

  router.delete('/crm/v3/properties/:type/:name', async (req, res) => {
    if (!(await store.properties.deleteProperty(account(res).portalId, objectType(req), String(req.params.name))))
      throw AppError.notFound(`No property "${String(req.params.name)}"`);
    res.status(204).end();
  });

  router.use(pipelineRoutes(store.pipelines, account));

  router.use(associationRoutes(store.associations, account));
  router.use(associationLabelRoutes(store.associationLabels, account));

  return router;
}
