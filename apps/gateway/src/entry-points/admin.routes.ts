import { Router } from 'express';
import { createValidator } from '@ecomm-sync/contracts';
import type { Repositories } from '@ecomm-sync/data-access';
import { AppError, parseWith, staticBearerAuth } from '@ecomm-sync/http';
import { provisionPortal } from '@ecomm-sync/provisioning';

const validateNewPortal = createValidator<{ name?: string; pipelineLimit?: number }>({
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, pipelineLimit: { type: 'integer', minimum: 0 } },
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
