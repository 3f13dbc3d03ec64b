import { Router } from 'express';
import { createValidator, sentStore, v2StoreInputSchema, type Tenant } from '@ecomm-sync/contracts';
import { parseWith } from '@ecomm-sync/runtime';
import type { ManageInstallUseCase } from '../use-cases/manage-install.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { objectIdParam } from './query-params';

const validateStore = createValidator(v2StoreInputSchema);

/**
 * v1 install, install status and uninstall; v2 stores. The customer's OAuth token (application
 * mode) or the portal's key or private-app token (direct mode), like sync messages.
 */
export function installRoutes(installs: ManageInstallUseCase, auth: Authorizer): Router {
  const router = Router();
  const customerData = auth.require(auth.customerData);
  const tenantOf = grantOf<Tenant>;

  router.post('/extensions/ecomm/v1/installs', ...customerData, async (_req, res) => {
    await installs.install(tenantOf(res));
    res.status(204).end();
  });
  router.get('/extensions/ecomm/v1/installs/status', ...customerData, async (_req, res) => {
    res.json(await installs.status(tenantOf(res)));
  });
  router.post('/extensions/ecomm/v1/installs/uninstall', ...customerData, async (_req, res) => {
    await installs.uninstall(tenantOf(res));
    res.status(204).end();
  });

  router.put('/extensions/ecomm/v2/stores', ...customerData, async (req, res) => {
    const store = sentStore(parseWith(validateStore, req.body));
    res.json(await installs.putStore(tenantOf(res), store));
  });
  router.get('/extensions/ecomm/v2/stores', ...customerData, async (_req, res) => {
    res.json({ results: await installs.listStores(tenantOf(res)) });
  });
  router.get('/extensions/ecomm/v2/stores/:storeId', ...customerData, async (req, res) => {
    res.json(await installs.getStore(tenantOf(res), objectIdParam(req.params.storeId, 'storeId')));
  });
  router.delete('/extensions/ecomm/v2/stores/:storeId', ...customerData, async (req, res) => {
    await installs.deleteStore(tenantOf(res), objectIdParam(req.params.storeId, 'storeId'));
    res.status(204).end();
  });

  return router;
}
