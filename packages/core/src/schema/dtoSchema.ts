/**
 * JSON Schema of a class-validator DTO class.
 *
 * Per property, the schema is built from (in order of authority):
 *  1. its class-validator constraints, through the converter table (what the server checks),
 *  2. class-transformer's `@Type(() => X)` (what `plainToInstance` builds),
 *  3. TypeScript's `design:type` (a claim that loses unions, element types and nullability).
 * Nested DTO classes are inlined; only classes that are reachable from themselves go to
 * the root's `$defs` and are referenced with `$ref`.
 */
import type { Class } from '../metadata/Class';
import { readDtoProperties, type DtoConstraint, type DtoProperty } from './class-validator';
import { findTypeMetadata, inputName, isExcludedFromInput, type Discriminator } from './class-transformer';
import { defaultDtoConverters, mergeDtoConverters, type DtoConverterTable } from './dtoConverters';
import { compileCustomMessage, setCustomMessages, type CustomMessage } from './customMessages';
import type { JsonSchema, JsonSchemaType } from './JsonSchema';
import { documentedProperties, readPropertyDocs, type PropertyDocs } from './propertyDocs';
import { PROPERTY_OPTIONS_SHAPE, shapeProblem } from '../registry/descriptorShapes';
import { X_MCP_HEADER } from '../headers/paramHeaders';
import type { SchemaContext } from './SchemaContext';
import { describeProfileIssues, schemaProfileIssues } from '../validation/schemaProfile';
import { compileDtoBuilder } from '../validation/compileDtoBuilder';

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
  const walk: Walk = {
    root: cls,
    ctx,
    converters: mergeDtoConverters(defaultDtoConverters, options.additionalConverters),
    coerce: options.coerce === true,
    input: options.direction !== 'output',
    recursive: findRecursiveClasses(cls),
  };
  if (!walk.recursive.has(cls)) return classSchema(cls, walk);
  // A tool's input root must be an object schema, not a bare $ref: inline a copy of the definition.
  return { ...ctx.defs[defineClass(cls, walk)] };
}

interface Walk {
  /** The class the schema is derived for: its instances are built with or without the libraries, nested ones alike. */
  readonly root: Class;
  readonly ctx: SchemaContext;
  readonly converters: DtoConverterTable;
  readonly coerce: boolean;
  /** Deriving an input schema (values come from JSON through plainToInstance). */
  readonly input: boolean;
  /** Classes on a reference cycle: always emitted as `$defs` + `$ref`. */
  readonly recursive: ReadonlySet<Class>;
}

// ---------------------------------------------------------------------------------------
// classes

function classSchema(cls: Class, walk: Walk): JsonSchema {
  const { ctx } = walk;
  const props = readDtoProperties(cls);
  if (props.length === 0) {
    report(
      ctx,
      `${ctx.where} -> ${className(cls)}`,
      'is used as a DTO but has no class-validator decorators, so its schema cannot be derived and class-validator rejects every value of it',
      'add class-validator decorators such as @IsString() to each property',
    );
    return { type: 'object', additionalProperties: false };
  }
  ctx.expanding.add(cls);
  try {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const prop of props) {
      if (isExcludedFromInput(cls, prop.name)) continue; // plainToInstance drops it: not an input
      const key = inputName(cls, prop.name);
      if (key === '__proto__') {
        report(
          ctx,
          `${ctx.where} -> ${className(cls)}.${prop.name}`,
          "takes the input key '__proto__', which JSON parsers and the MCP SDK drop, so no value could ever arrive",
          'rename the property (or its @Expose name).',
        );
        continue;
      }
      const derived = propertySchema(cls, prop, walk);
      properties[key] = derived.schema;
      if (derived.required) required.push(key);
    }
    reportDocsWithoutValidation(cls, props, ctx);
    reportUndecoratedFields(cls, props, ctx);
    if (walk.input) reportObjectMemberNames(cls, props, walk);
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  } finally {
    ctx.expanding.delete(cls);
  }
}

/** Inline schema for a plain nested class, `$ref` for a recursive one. */
function classRef(cls: Class, walk: Walk): JsonSchema {
  // `expanding` is a safety net: a cycle the up-front scan missed must not loop forever.
  if (walk.recursive.has(cls) || walk.ctx.expanding.has(cls)) return { $ref: `#/$defs/${defineClass(cls, walk)}` };
  return classSchema(cls, walk);
}

/** Puts `cls` into `ctx.defs` once and returns its name there. */
function defineClass(cls: Class, walk: Walk): string {
  const { ctx } = walk;
  const existing = ctx.defNames.get(cls);
  if (existing !== undefined) return existing;
  const name = freeDefName(cls, ctx);
  // Registered before expanding, so the class's references to itself become `$ref`s.
  ctx.defNames.set(cls, name);
  ctx.defs[name] = {};
  ctx.defs[name] = classSchema(cls, walk);
  return name;
}

/** The class name, suffixed 2, 3, ... when another class already took it (same name, different modules). */
function freeDefName(cls: Class, ctx: SchemaContext): string {
  const base = (cls.name || 'Anonymous').replace(/[^A-Za-z0-9_.-]/g, '_');
  const taken = new Set<string>([...Object.keys(ctx.defs), ...ctx.defNames.values()]);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

// ---------------------------------------------------------------------------------------
// properties

/** class-validator validations that shape presence or nesting, not the value's schema. */
const STRUCTURAL = new Set(['isOptional', 'conditionalValidation', 'isDefined', 'nestedValidation', 'whitelistValidation', 'promiseValidation']);

interface DerivedProperty {
  readonly schema: JsonSchema;
  readonly required: boolean;
}

function propertySchema(cls: Class, prop: DtoProperty, walk: Walk): DerivedProperty {
  const at = `${walk.ctx.where} -> ${className(cls)}.${prop.name}`;
  const required = isRequired(prop.constraints);
  const docs = readPropertyDocs(cls, prop.name);
  const mistyped = docs && shapeProblem(docs, PROPERTY_OPTIONS_SHAPE);
  if (mistyped) report(walk.ctx, at, `its @Property option ${mistyped}`, 'give it the type of the JSON Schema keyword it becomes, as @Property types it.');
  if (docs?.schema) return { schema: givenSchema(docs, at, walk), required };
  const design: unknown = Reflect.getMetadata('design:type', cls.prototype as object, prop.name);
  const hint = resolveTypeHint(cls, prop.name, at, walk.ctx);
  if (hint === HINT_FAILED) return { schema: {}, required };

  const shaping = prop.constraints.filter((c) => !STRUCTURAL.has(c.kind));
  const own = shaping.filter((c) => !c.each);
  const each = shaping.filter((c) => c.each);
  const nested = prop.constraints.find((c) => c.kind === 'nestedValidation');
  const isArray = design === Array || each.length > 0 || nested?.each === true || impliesArray(own, walk);

  // For an array, @Type names the element class; TypeScript says nothing about elements.
  const valueRef = isArray ? hint : (hint ?? design);
  if (walk.input) checkTransformPlumbing(prop, valueRef, { isArray, hasHint: hint !== undefined }, at, walk);
  // `@Type(() => Base, { discriminator })`: one of the subclasses, told apart by the discriminator's value.
  const discriminator = hint === undefined ? undefined : findTypeMetadata(cls, prop.name)?.discriminator;
  const valueBase = discriminator ? discriminatedSchema(discriminator, walk, at) : baseSchema(valueRef, walk);

  let schema: JsonSchema;
  if (isArray) {
    const items = applyConstraints(valueBase, each, walk, at);
    schema = applyConstraints({ type: 'array' }, own, walk, at) ?? { type: 'array' };
    if (isKnown(items)) schema = { ...schema, items };
    else
      report(
        walk.ctx,
        at,
        'is an array, but its element type cannot be known (TypeScript emits only `Array`)',
        'add @Type(() => X) for the element class, or an `each: true` constraint such as @IsString({ each: true })',
      );
  } else {
    schema = applyConstraints(valueBase, own, walk, at) ?? {};
    if (!isKnown(schema))
      report(
        walk.ctx,
        at,
        `has a type that cannot be known: TypeScript reflects it as ${describeReflected(design)}, and no constraint states a type`,
        'add a type constraint such as @IsString(), @IsInt() or @IsIn([...]), or @Type(() => X) for a class',
      );
  }
  if (docs) schema = withDocs(schema, docs);
  attachMessages(schema, own, cls, prop.name, walk);
  if (isArray && schema.items) attachMessages(schema.items, each, cls, prop.name, walk);
  return { schema, required };
}

/**
 * A constraint's own `message` replaces Toolwright's for the keywords it produced (for its
 * `type` only when that is all it produced, as with @IsString), so the model reads what the
 * app wrote whether the schema or class-validator rejects the value.
 */
function attachMessages(schema: JsonSchema, constraints: readonly DtoConstraint[], cls: Class, property: string, walk: Walk): void {
  const messages: Record<string, CustomMessage> = {};
  for (const constraint of constraints) {
    if (constraint.message === undefined) continue;
    const keywords = Object.keys(walk.converters[constraint.kind]?.(constraint, { type: singleType(schema.type) }) ?? {});
    const own = keywords.length > 1 ? keywords.filter((k) => k !== 'type') : keywords;
    const message = compileCustomMessage(constraint.message, property, className(cls), constraint.args);
    for (const keyword of own) messages[keyword] ??= message;
  }
  if (Object.keys(messages).length > 0) setCustomMessages(schema, messages);
}

/** Decorators that accept a missing value by design, so they never make a property required. */
const PASS_WHEN_MISSING = new Set(['whitelistValidation', 'promiseValidation']);

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

const HINT_FAILED = Symbol('hint failed');

/** The class named by `@Type(() => X)`, undefined without one. */
function resolveTypeHint(cls: Class, property: string, at: string, ctx: SchemaContext): unknown {
  const hint = findTypeMetadata(cls, property);
  if (!hint) return undefined;
  try {
    return hint.resolve();
  } catch (error) {
    report(
      ctx,
      at,
      `its @Type() function threw at startup: ${(error as Error).message}`,
      'make it return a fixed class, @Type(() => X): Toolwright calls it once without a value, so it cannot depend on the input',
    );
    return HINT_FAILED;
  }
}

/**
 * Nested classes and dates reach class-validator only if class-transformer builds them:
 * that takes @Type(() => X) (or implicit conversion), and the nested class's own
 * decorators run only under @ValidateNested().
 */
function checkTransformPlumbing(prop: DtoProperty, valueRef: unknown, shape: { isArray: boolean; hasHint: boolean }, at: string, walk: Walk): void {
  const kinds = new Set(prop.constraints.map((c) => c.kind));
  const nestedClass = isDtoClass(valueRef) ? valueRef : undefined;
  if (nestedClass && !kinds.has('nestedValidation')) {
    const name = className(nestedClass);
    report(
      walk.ctx,
      at,
      `holds ${name}${shape.isArray ? '[]' : ''}, but has no @ValidateNested(), so the decorators of ${name} never run`,
      `add @ValidateNested(${shape.isArray ? '{ each: true }' : ''})`,
    );
  }
  const needsInstance = (nestedClass !== undefined && kinds.has('nestedValidation')) || (valueRef === Date && kinds.has('isDate'));
  if (needsInstance && !shape.hasHint && !walk.coerce) {
    const target = className(valueRef as Class);
    report(
      walk.ctx,
      at,
      `expects an instance of ${target} but has no @Type(() => ${target}), so class-transformer leaves the JSON value as it is and validation always fails`,
      `add @Type(() => ${target}) from class-transformer`,
    );
  }
}

/** The schema TypeScript's (or @Type's) class implies; undefined when it implies nothing usable. */
function baseSchema(ref: unknown, walk: Walk): JsonSchema | undefined {
  if (ref === String) return { type: 'string' };
  if (ref === Number) return { type: 'number' };
  if (ref === Boolean) return { type: 'boolean' };
  if (ref === Date) return { type: 'string', format: 'date-time' }; // JSON carries dates as ISO strings
  if (isDtoClass(ref)) return classRef(ref, walk);
  return undefined;
}

/**
 * `oneOf` the subclasses, each with its discriminator property pinned by `const`: the value
 * `plainToInstance` reads to pick the class. The branches exclude each other, so exactly
 * one matches a valid value, and its message names the fields of that subclass.
 */
function discriminatedSchema(d: Discriminator, walk: Walk, at: string): JsonSchema | undefined {
  if (d.subTypes.length === 0) {
    report(walk.ctx, at, `has a @Type discriminator on '${d.property}' with no subTypes`, "list the subclasses: discriminator: { property: 'kind', subTypes: [{ name: 'a', value: A }] }");
    return undefined;
  }
  const variants = d.subTypes.map(({ name, value }): JsonSchema => {
    if (!isDtoClass(value)) {
      report(walk.ctx, at, `has a @Type discriminator subtype '${name}' that is not a class`, 'give each subtype `value` a class-validator DTO class');
      return {};
    }
    const base = walk.recursive.has(value) || walk.ctx.expanding.has(value) ? { ...walk.ctx.defs[defineClass(value, walk)] } : classSchema(value, walk);
    const declared = base.properties?.[d.property];
    if (d.keep && !declared) {
      report(
        walk.ctx,
        at,
        `keeps the discriminator '${d.property}' on ${className(value)} (keepDiscriminatorProperty), but ${className(value)} does not declare it, so class-validator rejects every value`,
        `declare it on ${className(value)} or its base class with a validator such as @IsIn(['${name}']), or drop keepDiscriminatorProperty`,
      );
    }
    const tag: JsonSchema = { const: name };
    const required = base.required?.includes(d.property) ? base.required : [...(base.required ?? []), d.property];
    return { ...base, properties: { ...base.properties, [d.property]: declared ? mergeSchemas(declared, tag) : tag }, required };
  });
  return { oneOf: variants };
}

/** `@Property({ schema })`, served as given (with the other docs) once its keywords are known to be enforceable. */
function givenSchema(docs: PropertyDocs, at: string, walk: Walk): JsonSchema {
  const issues = schemaProfileIssues(docs.schema);
  if (issues.length > 0) {
    const { what, fix } = describeProfileIssues(issues);
    report(walk.ctx, at, `its @Property schema ${what}`, fix);
  }
  return withDocs(structuredClone(docs.schema!), docs);
}

function withDocs(schema: JsonSchema, docs: PropertyDocs): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (docs.title !== undefined) out.title = docs.title;
  if (docs.description !== undefined) out.description = docs.description;
  if (docs.default !== undefined) out.default = docs.default;
  if (docs.examples !== undefined) out.examples = [...docs.examples];
  if (docs.deprecated !== undefined) out.deprecated = docs.deprecated;
  if (docs.header !== undefined) out[X_MCP_HEADER] = docs.header;
  return out;
}

/**
 * A property named after a member of every object (`constructor`, `toString`, `hasOwnProperty`,
 * ...): class-validator groups a class's constraints in a plain object keyed by property name,
 * and class-transformer skips such keys when it copies, so every call that needs them failed
 * with a TypeError. A root class whose constraints (its nested classes' too) its schema
 * expresses is built without them (`compileDtoBuilder`), and takes such names.
 */
function reportObjectMemberNames(cls: Class, props: readonly DtoProperty[], walk: Walk): void {
  const clashing = props.filter(({ name }) => name in Object.prototype && inputName(cls, name) !== '__proto__');
  if (clashing.length === 0 || compileDtoBuilder(walk.root)) return;
  for (const { name } of clashing) {
    report(
      walk.ctx,
      `${walk.ctx.where} -> ${className(cls)}.${name}`,
      `is named after a member of every object (Object.prototype.${name}), which class-validator and class-transformer cannot validate or copy`,
      'rename the property, or keep the DTO (with the classes it nests) to constraints its JSON Schema expresses (@IsString, @IsNumber, @IsInt, @IsBoolean, @IsIn, @IsEnum, @Min, @Max, @Length, @IsOptional, @ValidateNested with @Type; no format or custom validators, @Transform, @Expose or @Exclude), which Toolwright checks without those libraries.',
    );
  }
}

/** `@Property` on a field without class-validator decorators: whitelisting would reject it. */
function reportDocsWithoutValidation(cls: Class, props: readonly DtoProperty[], ctx: SchemaContext): void {
  const validated = new Set(props.map((p) => p.name));
  for (const name of documentedProperties(cls)) {
    if (validated.has(name)) continue;
    report(
      ctx,
      `${ctx.where} -> ${className(cls)}.${name}`,
      'has @Property() but no class-validator decorator, so it is not part of the schema and class-validator rejects it as an unknown property',
      'add a class-validator decorator such as @IsString() (or @Allow() to accept any value)',
    );
  }
}

/**
 * A field declared without any decorator (`discountCode!: string`) leaves no metadata, so
 * class-validator never hears of it: it would be missing from the schema and refused as an
 * unknown property. Compiled for ES2022 or later (class fields defined, the default of
 * `target: "ES2022"`), the field is an own property of a new instance, which shows it. A
 * class whose constructor needs arguments, or throws, is not built here; older targets
 * leave no trace (the ESLint rule `dto-property-decorated` sees those).
 */
function reportUndecoratedFields(cls: Class, props: readonly DtoProperty[], ctx: SchemaContext): void {
  if (cls.length > 0) return;
  let instance: object;
  try {
    instance = new cls() as object;
  } catch {
    return;
  }
  const known = new Set([...props.map((p) => p.name), ...documentedProperties(cls)]);
  for (const name of Object.keys(instance)) {
    if (known.has(name) || isExcludedFromInput(cls, name)) continue;
    report(
      ctx,
      `${ctx.where} -> ${className(cls)}.${name}`,
      'has no decorator, so class-validator never sees it: it is missing from the schema and a value sent for it is refused as an unknown property',
      'add a class-validator decorator such as @IsString() (with @IsOptional() if it may be absent; @ValidateNested() and @Type(() => Child) for a nested DTO), or @Allow() to accept any value',
    );
  }
}

// ---------------------------------------------------------------------------------------
// constraints -> schema

/** Merges the constraints' fragments onto `base`; undefined when neither says anything. */
function applyConstraints(base: JsonSchema | undefined, constraints: readonly DtoConstraint[], walk: Walk, at: string): JsonSchema | undefined {
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

function convertAll(constraints: readonly DtoConstraint[], type: JsonSchemaType | undefined, walk: Walk): JsonSchema[] {
  const fragments: JsonSchema[] = [];
  for (const constraint of constraints) {
    const fragment = walk.converters[constraint.kind]?.(constraint, { type });
    if (fragment) fragments.push(fragment);
  }
  return fragments;
}

/** Whether a non-`each` constraint (e.g. @IsArray, @ArrayMinSize) makes the value an array. */
function impliesArray(own: readonly DtoConstraint[], walk: Walk): boolean {
  return convertAll(own, undefined, walk).some((f) => typesOf(f.type)?.includes('array') === true);
}

/** The types all typed fragments allow; reports constraints that no value can pass together. */
function commonTypes(fragments: readonly JsonSchema[], constraints: readonly DtoConstraint[], at: string, ctx: SchemaContext): JsonSchemaType[] | undefined {
  let common: JsonSchemaType[] | undefined;
  for (const fragment of fragments) {
    const types = typesOf(fragment.type);
    if (types) common = common ? intersectTypes(common, types) : types;
  }
  if (common && common.length === 0) {
    report(ctx, at, `has constraints that require different types (${constraints.map((c) => c.kind).join(', ')}), so no value can pass them all`, 'keep the constraints of one type');
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

const TIGHTER_IS_LARGER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const TIGHTER_IS_SMALLER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/**
 * Both schemas at once: types intersect, bounds keep the tighter value, enums intersect;
 * any other keyword both set differently (two patterns) moves into `allOf`.
 */
function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const current = out[key];
    if (value === undefined || sameJson(current, value)) continue;
    if (current === undefined) out[key] = value;
    else if (key === 'type') out.type = unwrapTypes(intersectTypes(typesOf(current as JsonSchema['type'])!, typesOf(value as JsonSchema['type'])!), value as JsonSchema['type']);
    else if (TIGHTER_IS_LARGER.has(key)) out[key] = Math.max(current as number, value as number);
    else if (TIGHTER_IS_SMALLER.has(key)) out[key] = Math.min(current as number, value as number);
    else if (key === 'enum') out.enum = (current as unknown[]).filter((x) => (value as unknown[]).some((y) => sameJson(x, y)));
    else if (key === 'allOf') out.allOf = [...(current as JsonSchema[]), ...(value as JsonSchema[])];
    else out.allOf = [...(out.allOf ?? []), { [key]: value }];
  }
  return out;
}

function typesOf(type: JsonSchema['type']): JsonSchemaType[] | undefined {
  if (type === undefined) return undefined;
  return typeof type === 'string' ? [type] : [...type];
}

function singleType(type: JsonSchema['type']): JsonSchemaType | undefined {
  const types = typesOf(type);
  return types?.length === 1 ? types[0] : undefined;
}

/** Type intersection where `integer` is a subset of `number`. */
function intersectTypes(a: readonly JsonSchemaType[], b: readonly JsonSchemaType[]): JsonSchemaType[] {
  const out = new Set<JsonSchemaType>();
  for (const x of a) {
    for (const y of b) {
      if (x === y) out.add(x);
      else if ((x === 'integer' && y === 'number') || (x === 'number' && y === 'integer')) out.add('integer');
    }
  }
  return [...out];
}

/** One type as a string; an empty intersection keeps the later type (the conflict is reported). */
function unwrapTypes(types: JsonSchemaType[], fallback: JsonSchema['type']): JsonSchema['type'] {
  if (types.length === 0) return fallback;
  return types.length === 1 ? types[0] : types;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}

/** Whether the schema pins down what kind of value it accepts. */
function isKnown(schema: JsonSchema | undefined): schema is JsonSchema {
  return schema !== undefined && ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf'].some((key) => schema[key] !== undefined);
}

// ---------------------------------------------------------------------------------------
// recursion: which classes are reachable from themselves

function findRecursiveClasses(root: Class): ReadonlySet<Class> {
  const edges = new Map<Class, Class[]>();
  const pending: Class[] = [root];
  while (pending.length > 0) {
    const cls = pending.pop()!;
    if (edges.has(cls)) continue;
    const next = nestedClasses(cls);
    edges.set(cls, next);
    pending.push(...next);
  }
  const recursive = new Set<Class>();
  for (const [cls, next] of edges) if (reaches(edges, next, cls)) recursive.add(cls);
  return recursive;
}

/** The DTO classes `cls`'s properties hold (through @Type, else design:type). */
function nestedClasses(cls: Class): Class[] {
  const found: Class[] = [];
  for (const prop of readDtoProperties(cls)) {
    let ref: unknown;
    const hint = findTypeMetadata(cls, prop.name);
    for (const sub of hint?.discriminator?.subTypes ?? []) if (isDtoClass(sub.value)) found.push(sub.value);
    try {
      ref = hint ? hint.resolve() : Reflect.getMetadata('design:type', cls.prototype as object, prop.name);
    } catch {
      continue; // reported when the property itself is derived
    }
    if (isDtoClass(ref)) found.push(ref);
  }
  return found;
}

function reaches(edges: ReadonlyMap<Class, readonly Class[]>, from: readonly Class[], target: Class): boolean {
  const seen = new Set<Class>();
  const stack = [...from];
  while (stack.length > 0) {
    const cls = stack.pop()!;
    if (cls === target) return true;
    if (seen.has(cls)) continue;
    seen.add(cls);
    stack.push(...(edges.get(cls) ?? []));
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// helpers

/** Built-in constructors TypeScript reflects for non-DTO types. */
const BUILT_INS = new Set<unknown>([Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Date, RegExp, Promise, Map, Set, WeakMap, WeakSet, Error, ArrayBuffer, Uint8Array]);

function isDtoClass(ref: unknown): ref is Class {
  // Arrow functions have no prototype: a thunk is not a class.
  return typeof ref === 'function' && ref.prototype !== undefined && !BUILT_INS.has(ref);
}

function className(cls: Class): string {
  return cls.name || 'an anonymous class';
}

function describeReflected(design: unknown): string {
  if (design === undefined) return 'nothing (decorator metadata was not emitted: esbuild, tsx, vitest and Bun drop it)';
  if (design === Object) return 'Object (a union such as `string | undefined`, an interface, a type literal, `any` or `unknown`)';
  return typeof design === 'function' ? design.name || 'an anonymous function' : String(design);
}

/** Pushes a problem once: a DTO used in several places of one schema is reported once. */
function report(ctx: SchemaContext, where: string, what: string, fix: string): void {
  if (ctx.problems.some((p) => p.where === where && p.what === what)) return;
  ctx.problems.push({ where, what, fix });
}
