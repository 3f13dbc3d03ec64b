import { Router, type Request } from 'express';
import {
  createValidator,
  DEFAULT_STORE_ID,
  sentAssociations,
  v1ImportEndSchema,
  v1ImportPageSchema,
  v2ImportEndSchema,
  v2ImportPageSchema,
  v2ImportStartSchema,
  type Tenant,
} from '@ecomm-sync/contracts';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import type { ImportTenant, ManageImportsUseCase } from '../use-cases/manage-imports.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { objectIdParam, objectTypeParam } from './query-params';

const validateV1Page = createValidator(v1ImportPageSchema);
const validateV1End = createValidator(v1ImportEndSchema);
const validateV2Page = createValidator(v2ImportPageSchema);
const validateV2End = createValidator(v2ImportEndSchema);
const validateV2Start = createValidator(v2ImportStartSchema);

const epochParam = (value: unknown, name: string): number => {
  if (typeof value === 'string' && /^\d{1,16}$/.test(value)) return Number(value);
  throw AppError.badRequest(`${name} must be the import's importStartedAt (epoch milliseconds), got "${String(value)}"`);
};
const pageNumberParam = (value: unknown): number => {
  if (typeof value === 'string' && /^\d{1,7}$/.test(value)) return Number(value);
  throw AppError.badRequest(`pageNumber must be a number (or "end"), got "${String(value)}"`);
};

/**
 * Bulk imports: starting one and reading its state (the customer), pages and ends (the
 * application's OAuth token; an API key is refused), v1 and v2.
 */
export function importRoutes(imports: ManageImportsUseCase, auth: Authorizer): Router {
  const router = Router();
  const starter = auth.require(auth.importingApplication);
  const application = auth.require(auth.installedApplication);
  const appTenant = (tenant: Tenant): ImportTenant => ({ portalId: tenant.portalId, appId: tenant.appId! });

  router.post('/extensions/ecomm/v1/imports', ...starter, async (_req, res) => {
    res.status(201).json(await imports.start(grantOf<ImportTenant>(res), DEFAULT_STORE_ID, 'v1'));
  });
  router.get('/extensions/ecomm/v1/imports/:importStartedAt', ...starter, async (req, res) => {
    res.json(await imports.view(grantOf<ImportTenant>(res), DEFAULT_STORE_ID, epochParam(req.params.importStartedAt, 'importStartedAt')));
  });
  router.post('/extensions/ecomm/v2/imports', ...starter, async (req, res) => {
    const { storeId } = parseWith(validateV2Start, req.body ?? {});
    res.status(201).json(await imports.start(grantOf<ImportTenant>(res), storeId, 'v2'));
  });
  router.get('/extensions/ecomm/v2/imports/:importStartedAt', ...starter, async (req, res) => {
    const storeId = objectIdParam(req.query.storeId, 'Query parameter storeId');
    res.json(await imports.view(grantOf<ImportTenant>(res), storeId, epochParam(req.params.importStartedAt, 'importStartedAt')));
  });

  // v1 pages and ends; one old client called them without the /extensions/ecomm/v1 prefix.
  for (const prefix of ['/extensions/ecomm/v1/import-pages', '/import-pages']) {
    const target = (req: Request) => ({
      importStartedAt: epochParam(req.params.importStartedAt, 'importStartedAt'),
      objectType: objectTypeParam(req.params.objectType, 'The object type in the path'),
    });
    router.put(`${prefix}/:importStartedAt/:objectType/end`, ...application, async (req, res) => {
      const { importStartedAt, objectType } = target(req);
      await imports.end(appTenant(grantOf<Tenant>(res)), DEFAULT_STORE_ID, importStartedAt, objectType, parseWith(validateV1End, req.body));
      res.status(204).end();
    });
    router.put(`${prefix}/:importStartedAt/:objectType/:pageNumber`, ...application, async (req, res) => {
      const { importStartedAt, objectType } = target(req);
      const pageNumber = pageNumberParam(req.params.pageNumber);
      const messages = parseWith(validateV1Page, req.body);
      const items = messages.map((message) => ({ externalObjectId: message.integratorObjectId, properties: message.propertyNameToValues ?? {} }));
      await imports.putPage(appTenant(grantOf<Tenant>(res)), DEFAULT_STORE_ID, importStartedAt, objectType, pageNumber, items);
      res.json(messages);
    });
    router.get(`${prefix}/:importStartedAt/:objectType/:pageNumber`, ...application, async (req, res) => {
      const { importStartedAt, objectType } = target(req);
      const items = await imports.getPage(
        appTenant(grantOf<Tenant>(res)),
        DEFAULT_STORE_ID,
        importStartedAt,
        objectType,
        pageNumberParam(req.params.pageNumber),
      );
      res.json(items.map((item) => ({ integratorObjectId: item.externalObjectId, propertyNameToValues: item.properties })));
    });
  }

  router.post('/extensions/ecomm/v2/imports/page', ...application, async (req, res) => {
    const page = parseWith(validateV2Page, req.body);
    const items = page.messages.map((message) => {
      const associations = sentAssociations(message.associations);
      return { externalObjectId: message.externalObjectId, properties: message.properties ?? {}, ...(associations ? { associations } : {}) };
    });
    await imports.putPage(appTenant(grantOf<Tenant>(res)), page.storeId, page.importStartedAt, page.objectType, page.pageNumber, items);
    res.status(204).end();
  });
  router.post('/extensions/ecomm/v2/imports/end', ...application, async (req, res) => {
    const end = parseWith(validateV2End, req.body);
    await imports.end(appTenant(grantOf<Tenant>(res)), end.storeId, end.importStartedAt, end.objectType, end);
    res.status(204).end();
  });

  return router;
}
