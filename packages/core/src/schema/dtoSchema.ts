/**
 * JSON Schema of a class-validator DTO class.
 *
 * Per property, the schema is built from (in order of authority):
 *  1. its class-validator constraints, through the converter table (what the server checks),
 *  2. class-transformer's `@Type(() => X)` (what `plainToInstance` builds),
 *  3. TypeScript's `design:type` (a claim that loses unions, element types and nullability).
 * Nested DTO classes are inlined; only classes that are reachable from themselves go to
 * the root's `$defs` and are referenced with `$ref`.
 *
 * The walk: `classSchema` (a class's object schema, `$defs` for recursive ones) ->
 * `propertySchema` (one property) -> `applyConstraints` (constraints to keywords, merged by
 * `mergeSchemas`); `findRecursion` decides up front which classes and union branches go to `$defs`.
 */
import type { Class } from '../metadata/Class';
import { classSchema, inlineClass } from './classSchema';
import type { DtoWalk } from './DtoWalk';
import { defaultDtoConverters, mergeDtoConverters, type DtoConverterTable } from './dtoConverters';
import { findRecursion } from './findRecursion';
import type { JsonSchema } from './JsonSchema';
import type { SchemaContext } from './SchemaContext';
import { reportProblem } from './reportProblem';
import { jsonViewOf } from '../invoke/jsonView';
import { defaultRefusal, describeDefault } from '../validation/defaultRefusal';

export interface DtoSchemaOptions {
  /** Converters added to (or replacing) the defaults, by constraint kind. */
  readonly additionalConverters?: DtoConverterTable;
  /**
   * Whether calls run with implicit conversion (`enableImplicitConversion`). Then
   * class-transformer builds nested classes and dates from `design:type`, so a missing
   * `@Type(() => X)` is not a problem.
   */
  readonly coerce?: boolean;
  /**
   * `'output'` for a tool's result class: the method builds those instances itself, so the
   * checks that class-transformer can build nested input (@Type, @ValidateNested) are skipped.
   * Default `'input'`.
   */
  readonly direction?: 'input' | 'output';
}

/**
 * The inlined object schema of `cls`: `{ type: 'object', properties, required?, additionalProperties: false }`.
 * Recursive classes are placed in `ctx.defs`; problems are pushed to `ctx.problems`.
 */
export function dtoSchema(cls: Class, ctx: SchemaContext, options: DtoSchemaOptions = {}): JsonSchema {
  const walk: DtoWalk = {
    root: cls,
    ctx,
    converters: mergeDtoConverters(defaultDtoConverters, options.additionalConverters),
    coerce: options.coerce === true,
    input: options.direction !== 'output',
    recursion: findRecursion(cls),
    defaults: [],
  };
  // A tool's input root must be an object schema, not a bare $ref. A root that a class of its
  // graph holds is a copy of its `$defs` entry, which comes first in `$defs` and takes the class's
  // own name; a root that comes back only as a union branch refers to that branch's entry instead.
  const schema = walk.recursion.isHeldPlainly(cls) ? inlineClass(cls, walk) : classSchema(cls, walk);
  checkDefaults(walk);
  return schema;
}

/**
 * A `@Property` default must pass the property's own schema: clients fill it in, and the
 * schema would refuse it from them. Checked as JSON carries it (the advertised form), now that
 * the walk has filled `$defs`; a property met twice (a recursive class) is reported once.
 */
function checkDefaults({ defaults, ctx }: DtoWalk): void {
  for (const { at, property, schema } of defaults) {
    const refusal = defaultRefusal(schema, jsonViewOf(schema.default), property, ctx.defs);
    if (refusal === undefined) continue;
    reportProblem(
      ctx,
      at,
      `@Property has the default ${describeDefault(schema.default)}, which its own schema refuses: ${refusal}`,
      "give a default of the property's type that passes its rules (or leave the default out).",
    );
  }
}
