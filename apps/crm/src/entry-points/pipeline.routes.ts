import { Router, type Response } from 'express';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import type { Account } from '../data-access/account-store';
import type { Pipeline, PipelineStore } from '../data-access/pipeline-store';
import { validatePipeline, validatePipelinePatch, validateStage, validateStagePatch } from './setup-schemas';

/** A pipeline or a stage as the hosted CRM answers it (the SDK's Pipeline and PipelineStage). */
const presentStage = (stage: Pipeline['stages'][number]) => ({
  id: stage.id,
  label: stage.label,
  displayOrder: stage.displayOrder,
  metadata: stage.metadata ?? {},
  writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT',
  archived: false,
  createdAt: stage.createdAt ?? '2020-01-01T00:00:00.000Z',
  updatedAt: stage.updatedAt ?? stage.createdAt ?? '2020-01-01T00:00:00.000Z',
});

const presentPipeline = (pipeline: Pipeline) => ({
  id: pipeline.id,
  label: pipeline.label,
  displayOrder: pipeline.displayOrder,
  stages: [...pipeline.stages].sort((a, b) => a.displayOrder - b.displayOrder).map(presentStage),
  archived: false,
  createdAt: pipeline.createdAt ?? '2020-01-01T00:00:00.000Z',
  updatedAt: pipeline.updatedAt ?? pipeline.createdAt ?? '2020-01-01T00:00:00.000Z',
});

/**
 * Deal pipelines as the hosted CRM's pipelines API serves them: the CRM makes the pipelines' and the
 * stages' ids, a pipeline's label is unique, and stages are added, changed and archived through
 * their own endpoints.
 */
export function pipelineRoutes(pipelines: PipelineStore, account: (res: Response) => Account): Router {
  const router = Router();
  const base = '/crm/v3/pipelines/deals';
  const id = (value: unknown) => String(value);

  router.get(base, async (_req, res) => {
    res.json({ results: (await pipelines.listPipelines(account(res).portalId)).map(presentPipeline) });
  });

  router.get(`${base}/:id`, async (req, res) => {
    res.json(presentPipeline(await pipelines.pipeline(account(res).portalId, id(req.params.id))));
  });

  router.post(base, async (req, res) => {
    const body = parseWith(validatePipeline, req.body);
    res.status(201).json(presentPipeline(await pipelines.createPipeline(account(res), body)));
  });

  router.patch(`${base}/:id`, async (req, res) => {
    const body = parseWith(validatePipelinePatch, req.body);
    if (body.archived === true) {
      await pipelines.deletePipeline(account(res).portalId, id(req.params.id));
      res.status(204).end();
      return;
    }
    res.json(presentPipeline(await pipelines.updatePipeline(account(res).portalId, id(req.params.id), { label: body.label, displayOrder: body.displayOrder })));
  });

  router.delete(`${base}/:id`, async (req, res) => {
    if (!(await pipelines.deletePipeline(account(res).portalId, id(req.params.id)))) throw AppError.notFound(`No deal pipeline "${id(req.params.id)}"`);
    res.status(204).end();
  });

  router.get(`${base}/:id/stages`, async (req, res) => {
    res.json({ results: presentPipeline(await pipelines.pipeline(account(res).portalId, id(req.params.id))).stages });
  });

  router.post(`${base}/:id/stages`, async (req, res) => {
    const body = parseWith(validateStage, req.body);
    res.status(201).json(presentStage(await pipelines.createStage(account(res).portalId, id(req.params.id), body)));
  });

  router.patch(`${base}/:id/stages/:stageId`, async (req, res) => {
    const body = parseWith(validateStagePatch, req.body);
    const { portalId } = account(res);
    if (body.archived === true) {
      await pipelines.archiveStage(portalId, id(req.params.id), id(req.params.stageId));
      res.status(204).end();
      return;
    }
    res.json(presentStage(await pipelines.updateStage(portalId, id(req.params.id), id(req.params.stageId), body)));
  });

  router.delete(`${base}/:id/stages/:stageId`, async (req, res) => {
    await pipelines.archiveStage(account(res).portalId, id(req.params.id), id(req.params.stageId));
    res.status(204).end();
  });
  return router;
}
