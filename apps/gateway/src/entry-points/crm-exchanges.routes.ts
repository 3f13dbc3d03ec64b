import { Router, type Request } from 'express';
import type { AccountRepository, ConsoleScope } from '@ecomm-sync/data-access';
import { AppError, staticBearerAuth } from '@ecomm-sync/runtime';
import type { CrmExchangesUseCase } from '../use-cases/crm-exchanges.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { askedTenant } from './console-objects.routes';
import { consoleScope } from './console.routes';
import { integerParam, objectIdParam, objectTypeParam } from './query-params';

const limitOf = (req: Request) => integerParam(req.query, 'limit', 50, 1, 200);

/** A CRM account key as the CRM accounts list gives it (`builtin:7`, `hosted:https://…:7`). */
const accountParam = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length < 1 || value.length > 500)
    throw AppError.badRequest('Query parameter account must be a CRM account key of 1 to 500 characters');
  return value;
};

/**
 * The CRM request log in the console (decision 0051): an object's exchanges under the console's
 * credential rule (a tenant's own objects only), and recent failed exchanges per CRM account
 * under the admin token, like the rest of the operator's pages.
 */
export function crmExchangeRoutes(exchanges: CrmExchangesUseCase, accounts: AccountRepository, auth: Authorizer, adminToken: string): Router {
  const router = Router();
  const base = '/console/api/v1';
  const signedIn = auth.require(consoleScope(accounts));

  router.get(`${base}/objects/crm-exchanges`, ...signedIn, async (req, res) => {
    const { storeId, objectType, externalObjectId } = req.query;
    res.json(
      await exchanges.forObject(
        grantOf<{ scope: ConsoleScope }>(res).scope,
        {
          ...askedTenant(req),
          storeId: objectIdParam(storeId, 'Query parameter storeId'),
          objectType: objectTypeParam(objectType, 'Query parameter objectType'),
          externalObjectId: objectIdParam(externalObjectId, 'Query parameter externalObjectId'),
        },
        limitOf(req),
      ),
    );
  });

  router.get(`${base}/ops/crm-exchanges/failed`, staticBearerAuth(adminToken, 'The console operations API'), async (req, res) => {
    const account = accountParam(req.query.account);
    res.json(await exchanges.recentFailures({ ...(account === undefined ? {} : { account }), limit: limitOf(req) }));
  });
  return router;
}
