import Ajv from 'ajv';
import { MIN_PRODUCTION_SECRET_LENGTH, weakSecretReason } from './secret-strength';

type Format = 'string' | 'url' | 'port' | 'int' | 'boolean';

export interface ConfigKey {
  /** What the value is for; shown when it is wrong. */
  doc: string;
  format: Format;
  /** Used when the variable is not set. A key without default is required. */
  default?: string | number | boolean;
  /** Allowed values, for string keys. */
  values?: readonly string[];
  /** For int keys that 0 turns off: any other value must be at least this (smaller ones are traps, not settings). */
  offOrAtLeast?: number;
  /** For int keys that have no "off": the smallest value (a window must be at least 1 second, not 0). */
  atLeast?: number;
  /** For int keys: the largest value (a timer beyond what Node can wait fires at once). */
  atMost?: number;
  /** Never printed back (tokens, passwords). */
  sensitive?: boolean;
  /** May be left unset (no default): the value is then undefined. */
  optional?: boolean;
  /** With NODE_ENV=production a placeholder or short value stops the service (tokens, keys). */
  productionSecret?: boolean;
}

export type ConfigSchema = Record<string, ConfigKey>;

type ValueOf<K extends ConfigKey> = K['format'] extends 'port' | 'int' ? number : K['format'] extends 'boolean' ? boolean : string;

export type ConfigOf<S extends ConfigSchema> = { readonly [P in keyof S]: S[P]['optional'] extends true ? ValueOf<S[P]> | undefined : ValueOf<S[P]> };

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });

function jsonSchemaOf(key: ConfigKey): Record<string, unknown> {
  switch (key.format) {
    case 'port':
      return { type: 'integer', minimum: 0, maximum: 65535 };
    case 'int':
      return { type: 'integer', minimum: key.atLeast ?? 0, ...(key.atMost !== undefined ? { maximum: key.atMost } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'url':
      return { type: 'string', pattern: '^[a-z][a-z0-9+.-]*://\\S+$' };
    case 'string':
      return key.values ? { type: 'string', enum: [...key.values] } : { type: 'string', minLength: 1 };
  }
}

/**
 * Reads the variables a schema names from the environment (the variable name is the key),
 * applies defaults and validates everything before anything connects. Throws a ConfigError
 * naming each wrong variable and what it is for.
 */
export function loadConfig<S extends ConfigSchema>(schema: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const names = Object.keys(schema);
  const jsonSchema = {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, jsonSchemaOf(schema[name])])),
    required: names.filter((name) => schema[name].default === undefined && !schema[name].optional),
  };
  const input: Record<string, unknown> = {};
  for (const name of names) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') input[name] = raw;
    else if (schema[name].default !== undefined) input[name] = schema[name].default;
  }
  const validate = ajv.compile(jsonSchema);
  const shown = (name: string) => (schema[name]?.sensitive ? '(hidden)' : JSON.stringify(env[name] ?? input[name]));
  const valid = validate(input);
  const problems = (valid ? [] : (validate.errors ?? [])).map((error) => {
    const name = error.instancePath.slice(1) || String(error.params.missingProperty ?? '');
    const what = error.keyword === 'required' ? 'is required but not set' : `${error.message}, got ${shown(name)}`;
    return `${name} ${what} (${schema[name]?.doc ?? 'unknown'})`;
  });
  // Besides what the JSON schema says: an int key that 0 turns off, below its floor otherwise (checked once it is an integer).
  for (const name of names) {
    const { format, offOrAtLeast: floor, doc } = schema[name];
    const value = input[name];
    if (format === 'int' && floor !== undefined && Number.isInteger(value) && value !== 0 && (value as number) < floor) {
      problems.push(`${name} must be 0 (off) or at least ${floor}, got ${shown(name)} (${doc})`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  if (env.NODE_ENV === 'production') {
    const weak = names.flatMap((name) => {
      const reason = schema[name].productionSecret && typeof input[name] === 'string' ? weakSecretReason(input[name] as string) : null;
      return reason
        ? [`${name} ${reason}; with NODE_ENV=production set it to a random value of at least ${MIN_PRODUCTION_SECRET_LENGTH} characters (${schema[name].doc})`]
        : [];
    });
    if (weak.length > 0) throw new ConfigError(`Invalid configuration: ${weak.join('; ')}`);
  }
  return input as ConfigOf<S>;
}
