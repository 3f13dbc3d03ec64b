import { Router, type Response } from 'express';
import { createValidator, v1ImportSettingsSchema, v1SettingsSchema, v2SettingsSchema } from '@ecomm-sync/contracts';
import type { ReapplyJob } from '@ecomm-sync/data-access';
import { fromV1Settings, fromV2Settings, toV1Settings, toV2Settings, type ApiVersion } from '@ecomm-sync/domain';
import { parseWith } from '@ecomm-sync/runtime';
import type { ManageSettingsUseCase } from '../use-cases/manage-settings.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { booleanParam } from './query-params';

const validateV1 = createValidator(v1SettingsSchema);
const validateV2 = createValidator(v2SettingsSchema);
const validateImportSettings = createValidator(v1ImportSettingsSchema);

/** `app:<appId>` or `portal:<portalId>`: whose settings the request reads or writes. */
const ownerOf = (res: Response) => grantOf<string>(res);

const reapplyView = (job: ReapplyJob) => ({
  settingsRev: job.settingsRev,
  status: job.status,
  objectTypes: job.objectTypes,
  objectsProcessed: job.objectsProcessed,
  startedAt: job.startedAt,
  updatedAt: job.updatedAt,
  finishedAt: job.finishedAt,
});

/** Settings (v1, v2), import settings (v1) and the progress of re-applying after a change. */
export function settingsRoutes(settings: ManageSettingsUseCase, auth: Authorizer): Router {
  const router = Router();
  const paths = ['/extensions/ecomm/v1/settings', '/extensions/ecomm/v1/import-settings', '/extensions/ecomm/v2/settings'];
  router.use(paths, ...auth.require(auth.settingsOwner));

  // Both versions answer every field, before any PUT too (disabled and empty): a client reading the
  // settings of a fresh install before it writes them gets settings, not an error (docs/api.md).
  router.get('/extensions/ecomm/v1/settings', async (req, res) => {
    const showProvided = booleanParam(req.query, 'showProvidedProperties', false);
    res.json(toV1Settings(await settings.view(ownerOf(res)), showProvided));
  });

  // A PUT reads its query before it stores anything: a bad flag is a 400 that changed nothing.
  router.put('/extensions/ecomm/v1/settings', async (req, res) => {
    const showProvided = booleanParam(req.query, 'showProvidedProperties', false);
    const input = parseWith(validateV1, req.body);
    const stored = await settings.put(ownerOf(res), (current) => fromV1Settings(input, current), 'v1');
    res.json(toV1Settings(stored, showProvided));
  });

  router.get('/extensions/ecomm/v2/settings', async (req, res) => {
    const showProvided = booleanParam(req.query, 'showProvidedMappings', false);
    res.json(toV2Settings(await settings.view(ownerOf(res)), showProvided));
  });

  router.put('/extensions/ecomm/v2/settings', async (req, res) => {
    const showProvided = booleanParam(req.query, 'showProvidedMappings', false);
    const input = parseWith(validateV2, req.body);
    const stored = await settings.put(ownerOf(res), (current) => fromV2Settings(input, current), 'v2');
    res.json(toV2Settings(stored, showProvided));
  });

  for (const [version, path] of [
    ['v1', '/extensions/ecomm/v1/settings'],
    ['v2', '/extensions/ecomm/v2/settings'],
  ] as const satisfies readonly (readonly [ApiVersion, string])[]) {
    router.delete(path, async (_req, res) => {
      await settings.remove(ownerOf(res), version);
      res.status(204).end();
    });
    router.get(`${path}/reapply-status`, async (_req, res) => {
      res.json(reapplyView(await settings.reapplyStatus(ownerOf(res))));
    });
    router.post(`${path}/reapply`, async (_req, res) => {
      res.status(202).json(await settings.forceReapply(ownerOf(res)));
    });
  }

  router.get('/extensions/ecomm/v1/import-settings', async (_req, res) => {
    res.json({ importTriggerUri: await settings.importTriggerUri(ownerOf(res)) });
  });

  router.put('/extensions/ecomm/v1/import-settings', async (req, res) => {
    const { importTriggerUri } = parseWith(validateImportSettings, req.body);
    res.json({ importTriggerUri: await settings.putImportTriggerUri(ownerOf(res), importTriggerUri!) });
  });

  return router;
}
