import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { isUnion, objectShapes, tagValues, unionError, type UnionSchema } from './union-errors';

/**
 * One Ajv instance for every wire schema. `errorHint` is our annotation: the sentence a
 * client sees instead of ajv's own wording (for patterns, unions and whole arrays).
 * `maxUtf16Length` bounds a string in UTF-16 units, as the hosted CRM counts a value's
 * characters (an emoji is two; ajv's maxLength counts code points): a value accepted here fits
 * its property there. `exactInteger` refuses a whole number a double cannot hold exactly.
 * `discriminator` (OpenAPI's, built into ajv) picks a union's branch by a property such as `kind`,
 * so that an error is the picked branch's, or says which values the property takes.
 */
const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, strictTypes: false, discriminator: true });
addFormats(ajv);
ajv.addVocabulary(['errorHint']);
ajv.addKeyword({ keyword: 'maxUtf16Length', type: 'string', schemaType: 'number', errors: false, validate: (max: number, data: string) => data.length <= max });
// A whole number beyond ±2^53 lost digits when the body was parsed: refused, not stored rounded.
ajv.addKeyword({
  keyword: 'exactInteger',
  type: 'number',
  schemaType: 'boolean',
  errors: false,
  validate: (_on: boolean, data: number) => !Number.isInteger(data) || Number.isSafeInteger(data),
});

/**
 * Drops the `[x: string]: unknown` that FromSchema adds to an object schema without
 * `additionalProperties: false`: validation lets unknown fields through (a newer producer may add
 * one), but code reads only the declared ones. Typed maps (`additionalProperties: {schema}`) stay.
 */
export type Closed<T> = T extends readonly (infer I)[]
  ? Closed<I>[]
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Closed<T[K]> }
    : T;

/** The type of the values a JSON Schema accepts, derived from the schema (decision 0030). */
export type FromWireSchema<S extends JSONSchema> = Closed<FromSchema<S, { parseIfThenElseKeywords: true; parseNotKeyword: true }>>;

export type Validation<T> = { ok: true; value: T } | { ok: false; message: string };

/** How an error names null where an optional field's enumeration takes it (decision 60). */
export const OR_NULL = ' (or null, the same as leaving it out)';

export function describeError(error: ErrorObject, root: string): string {
  const where = `${root}${error.instancePath}`;
  const hint = (error.parentSchema as { errorHint?: string } | undefined)?.errorHint;
  if (error.propertyName !== undefined) {
    // A map's key refused by its `propertyNames`: which key (its start), and the rule for keys.
    const name = error.propertyName;
    const shown = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
    return `${where} has a property name of ${name.length} characters (${shown}): ${hint ?? `a property name ${error.message}`}`;
  }
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} has an unknown field "${String(error.params.additionalProperty)}"`;
    case 'required':
      return `${where} is missing the required field "${String(error.params.missingProperty)}"`;
    case 'enum': {
      const allowed = error.params.allowedValues as unknown[];
      const named = allowed
        .filter((value) => value !== null)
        .map(String)
        .join(', ');
      return `${where} must be one of ${named}${allowed.includes(null) ? OR_NULL : ''}`;
    }

    case 'discriminator': {
      const tag = String(error.params.tag);
      const taken = tagValues(error.parentSchema as UnionSchema, tag).join(', ');
      const got = error.params.error === 'mapping' ? `, got ${JSON.stringify(error.params.tagValue)}` : '';
      return `${where}/${tag} must be one of ${taken}${got}`;
    }
    case 'oneOf':
    case 'anyOf': {
      const shapes = objectShapes(error.parentSchema as UnionSchema);
      return `${where} ${hint ?? (shapes ? `must be an object with ${shapes}` : error.message)}`;
    }
    case 'maxItems':
    case 'minItems':
      return `${where} ${hint ?? error.message}, got ${(error.data as unknown[]).length}`;
    case 'maxProperties':
      return `${where} must hold at most ${String(error.params.limit)} properties, got ${Object.keys(error.data as object).length}`;
    default:
      return `${where} ${hint ?? error.message}`;
  }
}

/**
 * Compiles a schema once; the result answers ok with the value, typed from the schema itself
 * (json-schema-to-ts, decision 0030), or the first problem.
 */
export function createValidator<const S extends JSONSchema>(schema: S, root?: string): (data: unknown) => Validation<FromWireSchema<S>>;
export function createValidator(schema: object, root = 'body'): (data: unknown) => Validation<unknown> {
  const validate = ajv.compile(schema);
  return (data) => {
    if (validate(data)) return { ok: true, value: data };
    const errors = validate.errors!;
    // The outermost failed union: ajv reports an inner one before the union around it.
    const union = errors.filter(isUnion).at(-1);
    return { ok: false, message: describeError(union ? unionError(errors, union) : errors[0], root) };
  };
}
