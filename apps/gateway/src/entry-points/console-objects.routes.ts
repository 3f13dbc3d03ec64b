import { Router, type Request } from 'express';
import { createValidator, objectIdSchema, objectTypeSchema, propertyMapSchema, v2SettingsSchema } from '@ecomm-sync/contracts';
import type { AccountRepository } from '@ecomm-sync/data-access';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import type { InspectObjectUseCase } from '../use-cases/inspect-object.use-case';
import type { MappingDraftUseCase } from '../use-cases/mapping-draft.use-case';
import type { AskedTenant } from '../use-cases/console-tenant';
import { grantOf, type Authorizer } from './authenticate';
import { consoleScope } from './console.routes';
import { integerParam, objectIdParam, objectTypeParam, textParam } from './query-params';

const validateSettings = createValidator(v2SettingsSchema);
const validateDraftSettings = createValidator(v2SettingsSchema, 'body.settings');
const validateDryRun = createValidator({
  type: 'object',
  required: ['settings', 'storeId', 'objectType'],
  additionalProperties: false,
  properties: {
    settings: { type: 'object' },
    storeId: objectIdSchema,
    objectType: objectTypeSchema,
    externalObjectId: objectIdSchema,
    message: {
      type: 'object',
      required: ['externalObjectId', 'properties'],
      additionalProperties: false,
      properties: { externalObjectId: objectIdSchema, properties: propertyMapSchema },
    },
  },
});

/** The tenant in the page's query: portalId (integrators; a customer's own), appId (a portal key reading an installed application). */
export const askedTenant = (req: Request): AskedTenant => ({
  ...(req.query.portalId !== undefined ? { portalId: integerParam(req.query, 'portalId', 0, 1, Number.MAX_SAFE_INTEGER) } : {}),
  ...(textParam(req.query, 'appId') !== undefined ? { appId: objectIdParam(req.query.appId, 'Query parameter appId') } : {}),
});

/** The console's object inspector and mappings page (issue 14, pages 3 and 4), behind the console's credential rule. */
export function consoleObjectRoutes(
  deps: { inspect: InspectObjectUseCase; mappings: MappingDraftUseCase; accounts: AccountRepository },
  auth: Authorizer,
): Router {
  const router = Router();
  const base = '/console/api/v1';
  const signedIn = auth.require(consoleScope(deps.accounts));
  const scopeOf = (res: Parameters<typeof grantOf>[0]) => grantOf<{ scope: Parameters<InspectObjectUseCase['inspect']>[0] }>(res).scope;

  router.get(`${base}/objects`, ...signedIn, async (req, res) => {
    const { storeId, objectType, externalObjectId } = req.query;
    res.json(
      await deps.inspect.inspect(scopeOf(res), {
        ...askedTenant(req),
        storeId: objectIdParam(storeId, 'Query parameter storeId'),
        objectType: objectTypeParam(objectType, 'Query parameter objectType'),
        externalObjectId: objectIdParam(externalObjectId, 'Query parameter externalObjectId'),
      }),
    );
  });

  router.get(`${base}/mappings/crm-properties`, ...signedIn, async (req, res) => {
    res.json(await deps.mappings.crmProperties(scopeOf(res), askedTenant(req), objectTypeParam(req.query.objectType, 'Query parameter objectType')));
  });

  router.post(`${base}/mappings/validate`, ...signedIn, (req, res) => {
    res.json(deps.mappings.check(parseWith(validateSettings, req.body ?? {})));
  });

  router.post(`${base}/mappings/dry-run`, ...signedIn, async (req, res) => {
    const input = parseWith(validateDryRun, req.body ?? {});
    if ((input.externalObjectId === undefined) === (input.message === undefined))
      throw AppError.badRequest('body must have either externalObjectId (a stored object) or message (a typed one), not both');
    const settings = parseWith(validateDraftSettings, input.settings);
    res.json(await deps.mappings.dryRun(scopeOf(res), askedTenant(req), { ...input, settings }));
  });
  return router;
}
