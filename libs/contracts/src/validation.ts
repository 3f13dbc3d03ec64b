import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * One Ajv instance for every wire schema. `errorHint` is our annotation: the sentence a
 * client sees instead of ajv's own wording (for patterns, unions and whole arrays).
 */
const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, strictTypes: false });
addFormats(ajv);
ajv.addVocabulary(['errorHint']);

export type Validation<T> = { ok: true; value: T } | { ok: false; message: string };

export function describeError(error: ErrorObject, root: string): string {
  const where = `${root}${error.instancePath}`;
  const hint = (error.parentSchema as { errorHint?: string } | undefined)?.errorHint;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} has an unknown field "${String(error.params.additionalProperty)}"`;
    case 'required':
      return `${where} is missing the required field "${String(error.params.missingProperty)}"`;
    case 'enum':
      return `${where} must be one of ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'maxItems':
    case 'minItems':
      return `${where} ${hint ?? error.message}, got ${(error.data as unknown[]).length}`;
    default:
      return `${where} ${hint ?? error.message}`;
  }
}

/** Compiles a schema once; the result answers ok with the typed value or the first problem. */
export function createValidator<T>(schema: object, root = 'body'): (data: unknown) => Validation<T> {
  const validate: ValidateFunction = ajv.compile(schema);
  return (data) => {
    if (validate(data)) return { ok: true, value: data as T };
    const errors = validate.errors!;
    // A failed union reports each branch's error, then its own: the union's says what to send.
    const union = errors.find((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
    return { ok: false, message: describeError(union ?? errors[0], root) };
  };
}
