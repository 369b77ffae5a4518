import type { DtoConstraint } from './class-validator';
import type { DtoWalk } from './DtoWalk';
import type { JsonSchema, JsonSchemaType } from './JsonSchema';
import { intersectTypes, mergeSchemas, singleType, typesOf } from './mergeSchemas';
import { reportProblem } from './reportProblem';
import type { SchemaContext } from './SchemaContext';

/** Merges the constraints' fragments onto `base`; undefined when neither says anything. */
export function applyConstraints(base: JsonSchema | undefined, constraints: readonly DtoConstraint[], walk: DtoWalk, at: string): JsonSchema | undefined {
  const baseType = singleType(base?.type);
  let fragments = convertAll(constraints, baseType, walk);
  const constraintTypes = commonTypes(fragments, constraints, at, walk.ctx);
  // A second pass when the constraints pin a type TypeScript did not (e.g. @IsNotEmpty on a
  // property reflected as Object next to @IsString): converters may depend on the type.
  const resolved = constraintTypes?.length === 1 ? constraintTypes[0] : baseType;
  if (resolved !== baseType) fragments = convertAll(constraints, resolved, walk);
  const merged = fragments.reduce(mergeSchemas, {});
  if (!base) return Object.keys(merged).length > 0 ? merged : undefined;
  return overlay(base, merged);
}

/** Whether a non-`each` constraint (e.g. @IsArray, @ArrayMinSize) makes the value an array. */
export function impliesArray(own: readonly DtoConstraint[], walk: DtoWalk): boolean {
  return convertAll(own, undefined, walk).some((f) => typesOf(f.type)?.includes('array') === true);
}

/** Whether the schema pins down what kind of value it accepts. */
export function isKnown(schema: JsonSchema | undefined): schema is JsonSchema {
  return schema !== undefined && ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf'].some((key) => schema[key] !== undefined);
}

function convertAll(constraints: readonly DtoConstraint[], type: JsonSchemaType | undefined, walk: DtoWalk): JsonSchema[] {
  const fragments: JsonSchema[] = [];
  for (const constraint of constraints) {
    const fragment = walk.converters[constraint.kind]?.(constraint, { type });
    if (fragment) fragments.push(fragment);
  }
  return fragments;
}

/** The types all typed fragments allow; reports constraints that no value can pass together. */
function commonTypes(fragments: readonly JsonSchema[], constraints: readonly DtoConstraint[], at: string, ctx: SchemaContext): JsonSchemaType[] | undefined {
  let common: JsonSchemaType[] | undefined;
  for (const fragment of fragments) {
    const types = typesOf(fragment.type);
    if (types) common = common ? intersectTypes(common, types) : types;
  }
  if (common && common.length === 0) {
    reportProblem(ctx, at, `has constraints that require different types (${constraints.map((c) => c.kind).join(', ')}), so no value can pass them all`, 'keep the constraints of one type');
  }
  return common;
}

/**
 * The constraint fragment over the TypeScript-derived base. When their types disagree the
 * constraint wins: it is what the server checks; the TypeScript type is only a claim.
 */
function overlay(base: JsonSchema, fragment: JsonSchema): JsonSchema {
  const baseTypes = typesOf(base.type);
  const fragmentTypes = typesOf(fragment.type);
  if (baseTypes && fragmentTypes && intersectTypes(baseTypes, fragmentTypes).length === 0) return fragment;
  return mergeSchemas(base, fragment);
}
