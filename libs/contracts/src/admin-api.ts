/** Bodies of the admin API (`/admin/v1/...`, docs/api.md "Admin"). */

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const newPortalSchema = {
  $id: 'admin-new-portal',
  type: 'object',
  additionalProperties: false,
  properties: { name, pipelineLimit: { type: 'integer', minimum: 0, maximum: 1000 } },
} as const;

export const portalChangeSchema = {
  $id: 'admin-portal-change',
  type: 'object',
  required: ['pipelineLimit'],
  additionalProperties: false,
  properties: { pipelineLimit: { type: 'integer', minimum: 0, maximum: 1000 } },
} as const;

export const namedSchema = { $id: 'admin-named', type: 'object', additionalProperties: false, properties: { name } } as const;

export const newAppSchema = {
  $id: 'admin-new-app',
  type: 'object',
  required: ['developerId', 'name'],
  additionalProperties: false,
  properties: { developerId: { type: 'integer', minimum: 1 }, name },
} as const;

export const newInstallSchema = {
  $id: 'admin-new-install',
  type: 'object',
  required: ['portalId', 'appId'],
  additionalProperties: false,
  properties: { portalId: { type: 'integer', minimum: 1 }, appId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/** What the admin API answers: objects whose fields docs/api.md lists (secrets only when made). */
export const adminAnswerSchema = { type: 'object' } as const;
/** An admin listing: `results`, and `paging.next.after` while more follow (ask again with it as `after`). */
export const adminListSchema = {
  type: 'object',
  required: ['results'],
  properties: {
    results: { type: 'array', items: { type: 'object' } },
    paging: {
      type: 'object',
      required: ['next'],
      properties: { next: { type: 'object', required: ['after'], properties: { after: { type: 'string' } } } },
    },
  },
} as const;
