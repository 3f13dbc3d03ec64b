import type { ApiOperation, ApiParameter } from '@ecomm-sync/contracts';
import { CRM_BODY_SCHEMAS as body } from './schemas';

const portalToken = [{ crmToken: [] }];
const object = { type: 'object' } as const;
const id: ApiParameter = { description: 'The id the CRM gave the pipeline', schema: { type: 'string' } };
const stageId: ApiParameter = { description: 'The id the CRM gave the stage', schema: { type: 'string' } };
const pipelines = (operation: Omit<ApiOperation, 'tag' | 'security'>): ApiOperation => ({ ...operation, tag: 'Pipelines', security: portalToken });

/** The deal pipelines and their stages, as the hosted CRM's pipelines API (the CRM makes every id). */
export const PIPELINE_OPERATIONS: readonly ApiOperation[] = [
  pipelines({
    method: 'get',
    path: '/crm/v3/pipelines/deals',
    summary: "The portal's deal pipelines",
    responses: { 200: { description: '{results: [pipelines]}', schema: object } },
  }),
  pipelines({
    method: 'post',
    path: '/crm/v3/pipelines/deals',
    summary: 'Create a deal pipeline with its stages (at most the pipeline limit; labels are unique)',
    body: { schema: body.pipelineBody },
    responses: { 201: { description: 'The pipeline, with the ids the CRM made', schema: object } },
    errors: [409],
  }),
  pipelines({
    method: 'get',
    path: '/crm/v3/pipelines/deals/{id}',
    summary: 'One deal pipeline',
    pathParams: { id },
    responses: { 200: { description: 'The pipeline', schema: object } },
    errors: [404],
  }),
  pipelines({
    method: 'patch',
    path: '/crm/v3/pipelines/deals/{id}',
    summary: "Change a deal pipeline's label or order (its stages change through their own endpoints)",
    pathParams: { id },
    body: { schema: body.pipelinePatchBody },
    responses: { 200: { description: 'The pipeline', schema: object } },
    errors: [404, 409],
  }),
  pipelines({
    method: 'delete',
    path: '/crm/v3/pipelines/deals/{id}',
    summary: 'Delete a deal pipeline',
    pathParams: { id },
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
  }),
  pipelines({
    method: 'get',
    path: '/crm/v3/pipelines/deals/{id}/stages',
    summary: "A pipeline's stages",
    pathParams: { id },
    responses: { 200: { description: '{results: [stages]}', schema: object } },
    errors: [404],
  }),
  pipelines({
    method: 'post',
    path: '/crm/v3/pipelines/deals/{id}/stages',
    summary: 'Add a stage (metadata.probability required)',
    pathParams: { id },
    body: { schema: body.stageBody },
    responses: { 201: { description: 'The stage, with the id the CRM made', schema: object } },
    errors: [404],
  }),
  pipelines({
    method: 'patch',
    path: '/crm/v3/pipelines/deals/{id}/stages/{stageId}',
    summary: 'Change a stage',
    pathParams: { id, stageId },
    body: { schema: body.stagePatchBody },
    responses: { 200: { description: 'The stage', schema: object } },
    errors: [404],
  }),
  pipelines({
    method: 'delete',
    path: '/crm/v3/pipelines/deals/{id}/stages/{stageId}',
    summary: 'Archive a stage',
    pathParams: { id, stageId },
    responses: { 204: { description: 'Archived' } },
    errors: [404],
  }),
];
