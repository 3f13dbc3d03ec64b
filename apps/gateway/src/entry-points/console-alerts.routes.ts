import { Router, type Request, type Response } from 'express';
import { alertDestinationInputSchema, alertRuleInputSchema, alertRuleSwitchSchema, createValidator } from '@ecomm-sync/contracts';
import type { AccountRepository, ConsoleScope } from '@ecomm-sync/data-access';
import { parseWith } from '@ecomm-sync/runtime';
import { tenantOf } from '../use-cases/console-tenant';
import type { ManageAlertsUseCase } from '../use-cases/manage-alerts.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { askedTenant } from './console-objects.routes';
import { consoleScope } from './console.routes';
import { objectIdParam } from './query-params';

const validateRule = createValidator(alertRuleInputSchema);
const validateSwitch = createValidator(alertRuleSwitchSchema);
const validateDestination = createValidator(alertDestinationInputSchema);

/**
 * Alert rules, destinations and notices (issue 29), with the console's credential rule (decision
 * 0033): one tenant per request, the credential's own (403 for another portal; 404 for a portal
 * the integrator's application is not installed in), as the object inspector reads it.
 */
export function consoleAlertRoutes(alerts: ManageAlertsUseCase, accounts: AccountRepository, auth: Authorizer): Router {
  const router = Router();
  const base = '/console/api/v1/alerts';
  const signedIn = auth.require(consoleScope(accounts));
  const tenant = (req: Request, res: Response) => tenantOf(grantOf<{ scope: ConsoleScope }>(res).scope, askedTenant(req), accounts);
  const id = (req: Request, name: string) => objectIdParam(req.params[name], `Path parameter ${name}`);

  router.get(base, ...signedIn, async (req, res) => {
    res.json(await alerts.read(await tenant(req, res)));
  });
  router.post(`${base}/rules`, ...signedIn, async (req, res) => {
    res.status(201).json(await alerts.createRule(await tenant(req, res), parseWith(validateRule, req.body ?? {})));
  });
  router.put(`${base}/rules/:ruleId`, ...signedIn, async (req, res) => {
    res.json(await alerts.replaceRule(await tenant(req, res), id(req, 'ruleId'), parseWith(validateRule, req.body ?? {})));
  });
  router.patch(`${base}/rules/:ruleId`, ...signedIn, async (req, res) => {
    res.json(await alerts.switchRule(await tenant(req, res), id(req, 'ruleId'), parseWith(validateSwitch, req.body ?? {}).enabled));
  });
  router.delete(`${base}/rules/:ruleId`, ...signedIn, async (req, res) => {
    await alerts.deleteRule(await tenant(req, res), id(req, 'ruleId'));
    res.status(204).end();
  });
  router.post(`${base}/destinations`, ...signedIn, async (req, res) => {
    res.status(201).json(await alerts.addDestination(await tenant(req, res), parseWith(validateDestination, req.body ?? {})));
  });
  router.delete(`${base}/destinations/:destinationId`, ...signedIn, async (req, res) => {
    await alerts.removeDestination(await tenant(req, res), id(req, 'destinationId'));
    res.status(204).end();
  });
  return router;
}
