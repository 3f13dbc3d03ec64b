import type { ErrorObject } from 'ajv';

/** A union's schema as its errors carry it (ajv's `parentSchema`): the branches, objects or not. */
export interface UnionSchema {
  oneOf?: UnionBranch[];
  anyOf?: UnionBranch[];
}
interface UnionBranch {
  type?: unknown;
  required?: string[];
  properties?: Record<string, { const?: unknown; enum?: unknown[] }>;
}

export const isUnion = (error: ErrorObject): boolean => error.keyword === 'anyOf' || error.keyword === 'oneOf';

const branchesOf = (schema: UnionSchema | undefined): UnionBranch[] => schema?.oneOf ?? schema?.anyOf ?? [];

/**
 * A union of objects told apart by their required fields, in words, a fixed value beside its field:
 * `"object", or one with "kind": "webhook-completed" and "ok": true`. Null for other unions.
 */
export function objectShapes(schema: UnionSchema): string | null {
  const branches = branchesOf(schema);
  if (branches.length === 0 || !branches.every((branch) => branch.type === 'object' && branch.required?.length)) return null;
  const field = (branch: UnionBranch, name: string) => {
    const fixed = branch.properties?.[name]?.const;
    return fixed === undefined ? JSON.stringify(name) : `${JSON.stringify(name)}: ${JSON.stringify(fixed)}`;
  };
  return branches.map((branch) => branch.required!.map((name) => field(branch, name)).join(' and ')).join(', or one with ');
}

/** The values a union's tag takes, branch by branch. */
export function tagValues(schema: UnionSchema, tag: string): string[] {
  const values = branchesOf(schema).flatMap((branch) => {
    const property = branch.properties?.[tag];
    return (property?.const !== undefined ? [property.const] : (property?.enum ?? [])).map(String);
  });
  return [...new Set(values)];
}

/** Properties every branch of a union fixes with a `const` or an `enum` (such as `kind`): its tags. */
function tagsOf(union: ErrorObject): string[] {
  const fixed = (branch: UnionBranch) =>
    Object.entries(branch.properties ?? {})
      .filter(([, property]) => property.const !== undefined || property.enum !== undefined)
      .map(([name]) => name);
  const [first = [], ...others] = branchesOf(union.parentSchema as UnionSchema | undefined).map(fixed);
  return first.filter((name) => others.every((names) => names.includes(name)));
}

/** An error that says a union's branch is not the one sent: another shape at the union's own level. */
const SHAPE_KEYWORDS = new Set(['type', 'required', 'additionalProperties', 'const', 'discriminator', 'oneOf', 'anyOf']);

/**
 * The error that says what to fix of a failed union (each branch reports its first error, then the
 * union its own; an inner union's come before the outer's):
 * - the union's hint when it has one; a `oneOf` that failed because two branches passed, its own;
 * - the error of the one branch the value got into: its error lies deeper, or is about a value
 *   rather than a shape; a branch that is itself a union at the same place got in when one of its
 *   own branches did; a `const`, or a property every branch fixes (a tag), differing means it did
 *   not. Inside that branch, its own union is read the same way;
 * - when no branch took the value's tag, that the tag takes the values of the branches;
 * - else the union's own.
 */
export function unionError(errors: ErrorObject[], union: ErrorObject): ErrorObject {
  if ((union.parentSchema as { errorHint?: string } | undefined)?.errorHint || union.params.passingSchemas) return union;
  const ofBranch = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (error === union || !error.schemaPath.startsWith(`${union.schemaPath}/`)) continue;
    const branch = error.schemaPath.slice(union.schemaPath.length + 1).split('/')[0];
    ofBranch.set(branch, [...(ofBranch.get(branch) ?? []), error]);
  }
  const tags = tagsOf(union);
  const tagPaths = new Set(tags.map((tag) => `${union.instancePath}/${tag}`));
  const innerUnion = (branchErrors: ErrorObject[]) => branchErrors.filter(isUnion).at(-1);
  const entered = [...ofBranch.values()].filter((branchErrors) => {
    const inner = innerUnion(branchErrors);
    if (inner && inner.instancePath === union.instancePath) return unionError(branchErrors, inner) !== inner;
    const [first] = branchErrors;
    if (first.keyword === 'const' || tagPaths.has(first.instancePath)) return false;
    return first.instancePath.length > union.instancePath.length || !SHAPE_KEYWORDS.has(first.keyword);
  });
  if (entered.length === 1) {
    const inner = innerUnion(entered[0]);
    return inner ? unionError(entered[0], inner) : entered[0][0];
  }
  if (entered.length === 0) return untakenTag(union, tags) ?? union;
  return union;
}

/** The union's error as a tag's: when the value is an object whose tag no branch takes. */
function untakenTag(union: ErrorObject, tags: string[]): ErrorObject | null {
  const value = union.data;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  for (const tag of tags) {
    const sent = (value as Record<string, unknown>)[tag];
    if (typeof sent === 'string' && tagValues(union.parentSchema as UnionSchema, tag).includes(sent)) continue;
    return { ...union, keyword: 'discriminator', params: { error: sent === undefined ? 'tag' : 'mapping', tag, tagValue: sent } };
  }
  return null;
}
