import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './openapi-builder';

export interface BodyToCheck {
  kind: 'request' | 'response';
  /** The answer's status (responses only). */
  status?: string;
  method: string;
  /** A concrete path (`/extensions/ecomm/v2/stores/eu-shop`) or a template; a query is ignored. */
  path: string;
  body: unknown;
}

const pointer = (...segments: string[]) => '#/' + segments.map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * Checks request and answer bodies against an OpenAPI document's schemas with ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1): the problems of a body, none when it fits.
 */
export function openApiBodyChecker(document: OpenApiDocument): (body: BodyToCheck) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
  }));

  return ({ kind, status, method, path, body }) => {
    const verb = method.toLowerCase();
    const concrete = path.split('?')[0];
    const template = templates.find((candidate) => candidate.pattern.test(concrete) && document.paths[candidate.template][verb] !== undefined)?.template;
    if (!template) return [`${method} ${concrete} is not an operation of the document`];
    const responses = (document.paths[template][verb] as { responses: Record<string, { $ref?: string } | undefined> }).responses;
    // An error answer is shared (a reference to components/responses) unless its operation gives it a meaning of its own (inline).
    const shared = kind === 'response' ? responses[status ?? '']?.$ref : undefined;
    const where =
      kind === 'request'
        ? pointer('paths', template, verb, 'requestBody', 'content', 'application/json', 'schema')
        : shared
          ? `${shared}/content/application~1json/schema`
          : pointer('paths', template, verb, 'responses', status ?? '', 'content', 'application/json', 'schema');
    const validate = ajv.getSchema(`openapi.json${where}`);
    if (!validate) return [`${method} ${template} has no ${kind} ${status ?? ''} body in the document`];
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message}`);
  };
}
