import type { Class } from '../metadata/Class';
import { PROPERTY_OPTIONS_SHAPE, shapeProblem } from '../registry/descriptorShapes';
import { applyConstraints, impliesArray, isKnown } from './applyConstraints';
import { attachMessages } from './attachMessages';
import { checkTransformPlumbing } from './checkTransformPlumbing';
import { findTypeMetadata } from './class-transformer';
import type { DtoConstraint, DtoProperty } from './class-validator';
import { classRef } from './classSchema';
import { discriminatedSchema } from './discriminatedSchema';
import type { DtoWalk } from './DtoWalk';
import { isDtoClass } from './isDtoClass';
import type { JsonSchema } from './JsonSchema';
import { readPropertyDocs } from './propertyDocs';
import { propertyWhere, reportProblem } from './reportProblem';
import type { SchemaContext } from './SchemaContext';
import { givenSchema, withDocs } from './withDocs';

/** class-validator validations that shape presence or nesting, not the value's schema. */
const STRUCTURAL = new Set(['isOptional', 'conditionalValidation', 'isDefined', 'nestedValidation', 'whitelistValidation', 'promiseValidation']);

/** Decorators that accept a missing value by design, so they never make a property required. */
const PASS_WHEN_MISSING = new Set(['whitelistValidation', 'promiseValidation']);

const HINT_FAILED = Symbol('hint failed');

export interface DerivedProperty {
  readonly schema: JsonSchema;
  readonly required: boolean;
}

/** The schema of one DTO property, and whether the object requires it. */
export function propertySchema(cls: Class, prop: DtoProperty, walk: DtoWalk): DerivedProperty {
  const at = propertyWhere(walk.ctx, cls, prop.name);
  const required = isRequired(prop.constraints);
  const docs = readPropertyDocs(cls, prop.name);
  const mistyped = docs && shapeProblem(docs, PROPERTY_OPTIONS_SHAPE);
  if (mistyped) reportProblem(walk.ctx, at, `its @Property option ${mistyped}`, 'give it the type of the JSON Schema keyword it becomes, as @Property types it.');
  if (docs?.schema) return { schema: withDefault(givenSchema(docs, at, walk.ctx), at, prop.name, walk), required };
  const design: unknown = Reflect.getMetadata('design:type', cls.prototype as object, prop.name);
  const hint = resolveTypeHint(cls, prop.name, at, walk.ctx);
  if (hint === HINT_FAILED) return { schema: {}, required };

  const shaping = prop.constraints.filter((c) => !STRUCTURAL.has(c.kind));
  const own = shaping.filter((c) => !c.each);
  const each = shaping.filter((c) => c.each);
  const nested = prop.constraints.find((c) => c.kind === 'nestedValidation');
  // A Map arrives as a JSON object of its values, a Set as an array; class-transformer builds either only under @Type.
  const isMap = design === Map;
  if (isMap || design === Set) checkCollection(isMap ? 'Map' : 'Set', hint !== undefined, at, walk);
  const isArray = !isMap && (design === Array || design === Set || each.length > 0 || nested?.each === true || impliesArray(own, walk));
  const isCollection = isArray || isMap;

  // For an array (or a Map), @Type names the element class; TypeScript says nothing about elements.
  const valueRef = isCollection ? hint : (hint ?? design);
  if (walk.input) checkTransformPlumbing(prop, valueRef, { isArray: isCollection, hasHint: hint !== undefined }, at, walk);
  // `@Type(() => Base, { discriminator })`: one of the subclasses, told apart by the discriminator's value.
  const discriminator = hint === undefined ? undefined : findTypeMetadata(cls, prop.name)?.discriminator;
  const valueBase = discriminator ? discriminatedSchema(discriminator, walk, at) : baseSchema(valueRef, walk);

  let schema: JsonSchema;
  // A Map's values are the JSON object's property values.
  const elements = isMap ? 'additionalProperties' : 'items';
  if (isCollection) {
    const items = applyConstraints(valueBase, each, walk, at);
    const type = isMap ? 'object' : 'array';
    schema = applyConstraints({ type }, own, walk, at) ?? { type };
    if (isKnown(items)) schema = { ...schema, [elements]: items };
    else
      reportProblem(
        walk.ctx,
        at,
        `is ${isMap ? 'a Map' : 'an array'}, but its element type cannot be known (TypeScript emits only \`${isMap ? 'Map' : 'Array'}\`)`,
        'add @Type(() => X) for the element class, or an `each: true` constraint such as @IsString({ each: true })',
      );
  } else {
    schema = applyConstraints(valueBase, own, walk, at) ?? {};
    if (!isKnown(schema))
      reportProblem(
        walk.ctx,
        at,
        `has a type that cannot be known: TypeScript reflects it as ${describeReflected(design)}, and no constraint states a type`,
        'add a type constraint such as @IsString(), @IsInt() or @IsIn([...]), or @Type(() => X) for a class',
      );
  }
  if (docs) schema = withDocs(schema, docs);
  attachMessages(schema, own, cls, prop.name, walk);
  const itemSchema = isMap ? schema.additionalProperties : isArray ? schema.items : undefined;
  if (typeof itemSchema === 'object') attachMessages(itemSchema, each, cls, prop.name, walk);
  return { schema: withDefault(schema, at, prop.name, walk), required };
}

/** Notes a property schema with a `default`, to be checked against its own rules when the walk ends (`dtoSchema`). */
function withDefault(schema: JsonSchema, at: string, property: string, walk: DtoWalk): JsonSchema {
  if (schema.default !== undefined) walk.defaults.push({ at, property, schema });
  return schema;
}

/**
 * Required unless @IsOptional / @ValidateIf makes it optional. One deliberate difference
 * from class-validator: `@ValidateNested() address!: Address` is required too (class-validator
 * alone would skip `undefined`), because that is what the declaration says; the advertised
 * schema is checked before class-validator runs, so the rule holds at call time.
 */
function isRequired(constraints: readonly DtoConstraint[]): boolean {
  if (constraints.some((c) => c.kind === 'isOptional' || c.kind === 'conditionalValidation')) return false;
  return constraints.some((c) => !PASS_WHEN_MISSING.has(c.kind));
}

/**
 * A Set or Map input is built only by class-transformer under `@Type` (else the method gets the
 * JSON array or object); a result's is written by JSON.stringify as `{}`, its entries lost.
 */
function checkCollection(name: 'Set' | 'Map', hasHint: boolean, at: string, walk: DtoWalk): void {
  if (!walk.input) {
    reportProblem(
      walk.ctx,
      at,
      `is a ${name} in an output class, which JSON.stringify writes as {} (its entries lost)`,
      `declare it as ${name === 'Set' ? 'an array' : 'a plain object (Record<string, X>) with @IsObject()'} and convert the ${name} before returning it.`,
    );
  } else if (!hasHint) {
    reportProblem(
      walk.ctx,
      at,
      `is a ${name}, but has no @Type(() => X), so class-transformer leaves the JSON ${name === 'Map' ? 'object' : 'array'} as it is and the method gets no ${name}`,
      `add @Type(() => X) naming the class of its ${name === 'Map' ? 'values' : 'elements'}: @Type(() => String), @Type(() => Number) or a DTO class.`,
    );
  }
}

/** The class named by `@Type(() => X)`, undefined without one. */
function resolveTypeHint(cls: Class, property: string, at: string, ctx: SchemaContext): unknown {
  const hint = findTypeMetadata(cls, property);
  if (!hint) return undefined;
  try {
    return hint.resolve();
  } catch (error) {
    reportProblem(
      ctx,
      at,
      `its @Type() function threw at startup: ${(error as Error).message}`,
      'make it return a fixed class, @Type(() => X): Toolwright calls it once without a value, so it cannot depend on the input',
    );
    return HINT_FAILED;
  }
}

/** The schema TypeScript's (or @Type's) class implies; undefined when it implies nothing usable. */
function baseSchema(ref: unknown, walk: DtoWalk): JsonSchema | undefined {
  if (ref === String) return { type: 'string' };
  if (ref === Number) return { type: 'number' };
  if (ref === Boolean) return { type: 'boolean' };
  if (ref === Date) return { type: 'string', format: 'date-time' }; // JSON carries dates as ISO strings
  if (isDtoClass(ref)) return classRef(ref, walk);
  return undefined;
}

function describeReflected(design: unknown): string {
  if (design === undefined) return 'nothing (decorator metadata was not emitted: esbuild, tsx, vitest and Bun drop it)';
  if (design === Object) return 'Object (a union such as `string | undefined`, an interface, a type literal, `any` or `unknown`)';
  return typeof design === 'function' ? design.name || 'an anonymous function' : String(design);
}
