import { Router } from 'express';
import { createValidator } from '@ecomm-sync/contracts';
import type { Repositories } from '@ecomm-sync/data-access';
import { AppError, parseWith, staticBearerAuth } from '@ecomm-sync/http';
import { newSecret, provisionPortal } from '@ecomm-sync/provisioning';

const validateNewPortal = createValidator<{ name?: string; pipelineLimit?: number }>({
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, pipelineLimit: { type: 'integer', minimum: 0 } },
});

const validateNewDeveloper = createValidator<{ name?: string }>({
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 200 } },
});

const validateNewApp = createValidator<{ developerId: number; name: string }>({
  type: 'object',
  required: ['developerId', 'name'],
  additionalProperties: false,
  properties: { developerId: { type: 'integer', minimum: 1 }, name: { type: 'string', minLength: 1, maxLength: 200 } },
});

/** Admin API: accounts (the full credential model grows here, issue 7). */
export function adminRoutes(repositories: Repositories, crm: { baseUrl: string; adminToken: string }): Router {
  const router = Router();
  router.use('/admin', staticBearerAuth(crm.adminToken, 'The admin API'));

  router.post('/admin/v1/portals', async (req, res) => {
    const body = parseWith(validateNewPortal, req.body ?? {});
    const portal = await provisionPortal(repositories, crm, body);
    res.status(201).json({ portalId: portal.portalId, apiKey: portal.apiKey });
  });

  router.post('/admin/v1/developers', async (req, res) => {
    const body = parseWith(validateNewDeveloper, req.body ?? {});
    const developerId = await repositories.accounts.nextId('developerId');
    const apiKey = newSecret('dk');
    await repositories.accounts.createDeveloper({ developerId, name: body.name ?? `Developer ${developerId}`, apiKey });
    res.status(201).json({ developerId, apiKey });
  });

  router.post('/admin/v1/apps', async (req, res) => {
    const body = parseWith(validateNewApp, req.body);
    if (!(await repositories.accounts.findDeveloper(body.developerId))) throw AppError.notFound(`No developer ${body.developerId}`);
    const appId = String(await repositories.accounts.nextId('appId'));
    const clientId = newSecret('client');
    const clientSecret = newSecret('secret');
    await repositories.accounts.createApplication({ appId, developerId: body.developerId, name: body.name, clientId, clientSecret });
    res.status(201).json({ appId, clientId, clientSecret });
  });

  for (const [state, active] of [['disable', false], ['enable', true]] as const) {
    router.post(`/admin/v1/portals/:portalId/${state}`, async (req, res) => {
      const portalId = Number(req.params.portalId);
      const found = Number.isInteger(portalId) && (await repositories.portals.setActive(portalId, active));
      if (!found) throw AppError.notFound(`No portal ${req.params.portalId}`);
      res.status(204).end();
    });
  }

  return router;
}
