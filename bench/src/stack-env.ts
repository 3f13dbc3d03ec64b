/**
 * `--stack-env KEY=VALUE` (repeatable): a setting for every stack the run starts, over the figure's
 * own, so that two settings can be compared run against run without editing a figure. The value is
 * checked by the apps at boot like any other; the key is checked here against the configuration
 * reference, since an app ignores a variable it does not know and a misspelt key would measure the
 * defaults under another name.
 */
import { TestStack, type StackOptions } from '@ecomm-sync/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const FLAG = '--stack-env';

/** The keys of docs/configuration.md (generated from every app's config schema; a test fails when it is stale). */
function knownKeys(root: string): Set<string> {
  const reference = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');
  return new Set([...reference.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]));
}

/** The settings given with `--stack-env` in `argv`; a malformed or unknown one stops the bench with a sentence saying what to fix. */
export function stackEnvOf(argv: readonly string[], root: string): Record<string, string> {
  const env: Record<string, string> = {};
  let known: Set<string> | undefined;
  argv.forEach((arg, at) => {
    if (arg !== FLAG) return;
    const setting = argv[at + 1] ?? '';
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(setting);
    if (!match) throw new Error(`${FLAG} needs KEY=VALUE (for example ${FLAG} AMQP_BULK_HOLD_MS=0), got "${setting}"`);
    known ??= knownKeys(root);
    if (!known.has(match[1])) throw new Error(`${FLAG}: ${match[1]} is not a setting of any app (see docs/configuration.md)`);
    env[match[1]] = match[2];
  });
  return env;
}

/** `--stack-env KEY=VALUE …` as the recorded command line writes it. */
export function stackEnvArguments(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([key, value]) => `${FLAG} ${key}=${value}`)
    .join(' ');
}

/** Starts a stack with the figure's options and the run's `--stack-env` settings over them. */
export function stackStarter(env: Record<string, string>): (options: StackOptions) => Promise<TestStack> {
  return (options) => TestStack.start({ ...options, env: { ...options.env, ...env } });
}
