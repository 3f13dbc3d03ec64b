/**
 * `--stack-env KEY=VALUE` (repeatable): a setting for every stack the run starts, over the figure's
 * own, so that two settings can be compared run against run without editing a figure. The value is
 * checked by the apps at boot like any other; the key is checked here against the configuration
 * reference, since an app ignores a variable it does not know and a misspelt key would measure the
 * defaults under another name.
 */
import { ISOLATING_VARIABLES, TestStack, type StackOptions } from '@ecomm-sync/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const FLAG = '--stack-env';

/** Keys a figure sets to compare or to measure through: the reason why it cannot take them, or the flag that sets them. */
const FIGURE_OWNED: Record<string, string> = {
  METRICS_ENABLED: 'the observability figure compares it off and on',
  TRACING_ENABLED: 'the observability figure compares it off and on',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'the observability figure points it at its own receiver',
  CRM_REQUEST_LOG: 'the CRM request log figure compares it off and on',
  CRM_MAX_WAIT_MS: 'use --crm-max-wait-ms, which the CRM budget row reports',
  APPLIER_RESUME_PATIENCE_MS: 'use --resume-patience-ms, which the CRM budget row reports',
  CRM_CHUNKS_AT_ONCE: 'use --chunks-at-once, which the CRM budget row reports',
};

/** Why `key` cannot be given with --stack-env, or null when it can. */
function refusal(key: string, known: Set<string>): string | null {
  if (!known.has(key)) return `${key} is not a setting of any app (see docs/configuration.md)`;
  if (ISOLATING_VARIABLES.includes(key)) return `${key} is set by the test stack to keep stacks apart`;
  return key in FIGURE_OWNED ? `${key} cannot be changed here: ${FIGURE_OWNED[key]}` : null;
}

/** The keys of docs/configuration.md (generated from every app's config schema; a test fails when it is stale). */
function knownKeys(root: string): Set<string> {
  const reference = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');
  return new Set([...reference.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]));
}

/** The settings given with `--stack-env` in `argv`; a malformed, unknown, refused or repeated one stops the bench with a sentence saying what to fix. */
export function stackEnvOf(argv: readonly string[], root: string): Record<string, string> {
  const env: Record<string, string> = {};
  let known: Set<string> | undefined;
  argv.forEach((arg, at) => {
    if (arg.startsWith(`${FLAG}=`)) throw new Error(`${FLAG} takes its setting as the next argument: ${FLAG} ${arg.slice(FLAG.length + 1)}`);
    if (arg !== FLAG) return;
    const setting = argv[at + 1] ?? '';
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(setting);
    if (!match) throw new Error(`${FLAG} needs KEY=VALUE (for example ${FLAG} AMQP_BULK_HOLD_MS=0), got "${setting}"`);
    const [, key, value] = match;
    known ??= knownKeys(root);
    const refused = refusal(key, known);
    if (refused) throw new Error(`${FLAG}: ${refused}`);
    if (key in env) throw new Error(`${FLAG}: ${key} is given twice (${env[key]} and ${value}); give it once`);
    env[key] = value;
  });
  return env;
}

/** `--stack-env KEY=VALUE …` as the recorded command line writes it (a value with spaces or quotes quoted, so that it runs again as written). */
export function stackEnvArguments(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => `${FLAG} ${/^[\w.,:/@+-]*$/.test(value) ? `${key}=${value}` : `'${`${key}=${value}`.replace(/'/g, `'\\''`)}'`}`)
    .join(' ');
}

/** Starts a stack with the figure's options and the run's `--stack-env` settings over them. */
export function stackStarter(env: Record<string, string>): (options: StackOptions) => Promise<TestStack> {
  return (options) => TestStack.start({ ...options, env: { ...options.env, ...env } });
}
