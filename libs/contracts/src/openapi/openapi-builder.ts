/**
 * Builds an OpenAPI 3.1 document from a table of operations whose bodies are the wire schemas
 * themselves (decision 0030): nothing about a body is written a second time here.
 */

export type HttpMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** A security requirement: every scheme named must be present (e.g. developer key and appId). */
export type SecurityRequirement = Record<string, readonly string[]>;

export interface ApiParameter {
  description: string;
  schema: object;
  required?: boolean;
}

export interface ApiResponse {
  description: string;
  schema?: object;
}

export interface ApiOperation {
  method: HttpMethod;
  /** OpenAPI path template: `/extensions/ecomm/v1/sync-messages/{objectType}`. */
  path: string;
  summary: string;
  tag: string;
  /** Alternatives: any one requirement admits the request; empty: no credential. */
  security: readonly SecurityRequirement[];
  /** Path parameters not given here are plain strings. */
  pathParams?: Record<string, ApiParameter>;
  query?: Record<string, ApiParameter>;
  body?: { schema: object; contentType?: string; required?: boolean };
  /** Successful answers; the error answers of SPEC.md's shape are added by the builder. */
  responses: Record<number, ApiResponse>;
  /** Error statuses this operation can answer besides 401, 429 and 500 (400 comes with a body). */
  errors?: readonly number[];
  /** What an error status means for this operation when the shared description does not say it (the error body is the same). */
  errorMeanings?: Readonly<Record<number, string>>;
}

export interface ApiDocumentSpec {
  title: string;
  version: string;
  description: string;
  securitySchemes: Record<string, object>;
  errorSchema: object;
  operations: readonly ApiOperation[];
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The body or a parameter is invalid; the message names the field',
  401: 'No credential, or one that matches nothing (revoked, rotated, expired)',
  403: 'A valid credential of the wrong kind for this endpoint',
  404: 'No such object',
  409: 'A state conflict the message explains',
  413: 'The body is larger than the limit',
  415: 'The body is not of the content type this endpoint takes',
  429: 'Too many requests with this credential; Retry-After says when to go on',
  502: 'The CRM failed; nothing was left half-made, try again',
  503: 'A dependency did not answer; nothing was accepted, send it again',
};

const componentName = (id: string) => id.replace(/(^|[-_])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/**
 * A wire schema as an OpenAPI 3.1 schema: a sub-schema with an `$id` becomes a named component
 * (referenced), `errorHint` (our ajv annotation) becomes the description, `maxUtf16Length` (our
 * keyword) the standard `maxLength`.
 */
export function toOpenApiSchema(schema: unknown, components: Record<string, Json>): Json {
  if (Array.isArray(schema)) return schema.map((item) => toOpenApiSchema(item, components));
  if (schema === null || typeof schema !== 'object') return schema as Json;
  // ajv's `discriminator` over inline branches has no meaning in OpenAPI (it maps to named components): the oneOf says it all.
  const { $id, errorHint, maxUtf16Length, exactInteger: _exactInteger, discriminator: _discriminator, ...rest } = schema as Record<string, unknown>;
  const converted: Record<string, Json> = {};
  if (typeof maxUtf16Length === 'number') converted.maxLength = maxUtf16Length;
  for (const [key, value] of Object.entries(rest)) {
    converted[key] = key === 'properties' || key === '$defs' ? mapValues(value as Record<string, unknown>, components) : toOpenApiSchema(value, components);
  }
  if (typeof errorHint === 'string' && converted.description === undefined) converted.description = `Value ${errorHint}`;
  if (typeof $id !== 'string') return converted;
  const name = componentName($id);
  components[name] = converted;
  return { $ref: `#/components/schemas/${name}` };
}

const mapValues = (properties: Record<string, unknown>, components: Record<string, Json>): Json =>
  Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, toOpenApiSchema(sub, components)]));

const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Json };
}

export function buildOpenApiDocument(spec: ApiDocumentSpec): OpenApiDocument {
  const schemas: Record<string, Json> = {};
  const errorRef = toOpenApiSchema({ ...spec.errorSchema, $id: 'error' }, schemas);
  const paths: Record<string, Record<string, Json>> = {};
  for (const operation of spec.operations) {
    const parameters: Json[] = [
      ...pathParamNames(operation.path).map((name) => {
        const given = operation.pathParams?.[name];
        return {
          name,
          in: 'path',
          required: true,
          description: given?.description ?? name,
          schema: toOpenApiSchema(given?.schema ?? { type: 'string' }, schemas),
        };
      }),
      ...Object.entries(operation.query ?? {}).map(([name, param]) => ({
        name,
        in: 'query',
        required: param.required ?? false,
        description: param.description,
        schema: toOpenApiSchema(param.schema, schemas),
      })),
    ];
    const responses: Record<string, Json> = {};
    const errorMeanings: Record<number, string> = operation.errorMeanings ?? {};
    for (const [status, response] of Object.entries(operation.responses)) {
      responses[status] = response.schema
        ? { description: response.description, content: { 'application/json': { schema: toOpenApiSchema(response.schema, schemas) } } }
        : { description: response.description };
    }
    const errorStatuses = new Set([...(operation.body ? [400] : []), ...(operation.security.length > 0 ? [401, 429] : []), ...(operation.errors ?? [])]);
    for (const status of [...errorStatuses].sort()) {
      const meaning = errorMeanings[status];
      responses[String(status)] = meaning
        ? { description: meaning, content: { 'application/json': { schema: errorRef } } }
        : { $ref: `#/components/responses/Error${status}` };
    }
    const body: Record<string, Json> = operation.body
      ? {
          requestBody: {
            required: operation.body.required ?? true,
            content: { [operation.body.contentType ?? 'application/json']: { schema: toOpenApiSchema(operation.body.schema, schemas) } },
          },
        }
      : {};
    paths[operation.path] ??= {};
    const item: Record<string, Json> = {
      operationId: `${operation.method}${operation.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
      summary: operation.summary,
      tags: [operation.tag],
      security: operation.security.map((requirement) => ({ ...requirement }) as Json),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...body,
      responses,
    };
    paths[operation.path][operation.method] = item;
  }
  const errorResponses = Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [
      `Error${status}`,
      { description, content: { 'application/json': { schema: errorRef } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: spec.title, version: spec.version, description: spec.description },
    paths,
    components: { schemas, responses: errorResponses, securitySchemes: spec.securitySchemes as Json },
  };
}
