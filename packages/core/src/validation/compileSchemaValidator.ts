import type { JsonSchema, JsonSchemaType } from '../schema/JsonSchema';
import { customMessagesOf, type CustomMessage, type CustomMessages } from '../schema/customMessages';
import { BuildError } from '../errors/BuildError';
import { ToolwrightError } from '../errors/ToolwrightError';
import { formatCheck, formatRefusal } from './formats';
import { jsonEqual, jsonKey } from './jsonEqual';
import { describeProfileIssues, resolvePointer, schemaProfileIssues } from './schemaProfile';
import { nativePattern, type PatternCompiler } from './PatternCompiler';
import { MAX_COLLECTED_ISSUES, type ValidationIssue, type ValidationOutcome } from './ValidationIssue';

/** A schema position: an object, or `true` (anything) / `false` (nothing) in raw schemas. */
type SchemaNode = JsonSchema | boolean;

/** How a validator checks values. */
export interface SchemaValidatorOptions {
  /** Convert strings where the schema wants a number, integer or boolean ("5" -> 5, "true" -> true). Default false. */
  coerce?: boolean;
  /** Compiles `pattern` and the names of `patternProperties`. Default: `new RegExp(source, 'u')`. */
  compilePattern?: PatternCompiler;
}

/**
 * Compiles a JSON Schema of Toolwright's 2020-12 profile (`schemaProfile.ts`) into a
 * validator closure once, so a call pays only for the checks themselves. A schema with a
 * keyword outside the profile throws a `BuildError` naming it: no keyword is skipped.
 *
 * With `coerce`, strings are converted where the schema wants a number, integer or
 * boolean ("5" -> 5, "true" -> true); otherwise values are never converted. With
 * `compilePattern`, `pattern` and `patternProperties` run on the engine it returns (a
 * linear-time one for schemas from a third party); a pattern it refuses is a `BuildError`.
 */
export function compileSchemaValidator(root: JsonSchema, options: SchemaValidatorOptions = {}): (value: unknown) => ValidationOutcome {
  const profile = schemaProfileIssues(root, options.compilePattern);
  if (profile.length > 0) throw new BuildError([{ where: 'the schema', ...describeProfileIssues(profile) }]);
  return compileProfileSchema(root, options);
}

/**
 * `compileSchemaValidator` without the profile walk, for schemas known to be in the
 * profile: derived by Toolwright, or user-supplied and checked at build (`checkSchemaProfile`).
 */
export function compileProfileSchema(root: JsonSchema, options: SchemaValidatorOptions = {}): (value: unknown) => ValidationOutcome {
  const compiler = new Compiler(root, options.coerce === true, options.compilePattern ?? nativePattern);
  const check = compiler.compile(root);
  return (value) => {
    const issues: ValidationIssue[] = [];
    const out = check(value, '', issues);
    return issues.length === 0 ? { ok: true, value: out } : { ok: false, issues };
  };
}

/** Validates one value at `path`; pushes issues; returns the value (coerced when allowed). */
type Check = (value: unknown, path: string, issues: ValidationIssue[]) => unknown;

class Compiler {
  private readonly refs = new Map<string, Check>();

  constructor(
    private readonly root: JsonSchema,
    private readonly coerce: boolean,
    private readonly compilePattern: PatternCompiler,
  ) {}

  compile(node: SchemaNode): Check {
    if (node === true) return (value) => value;
    if (node === false) return (value, path, issues) => (issues.push({ path, message: 'is not allowed' }), value);
    const schema = node;
    const custom = customMessagesOf(schema) ?? {};
    const checks: Check[] = [];
    // Beside other keywords, $ref applies as well (2020-12), not instead.
    if (schema.$ref !== undefined) checks.push(this.compileRef(schema.$ref));
    if (schema.const !== undefined) checks.push(constCheck(schema.const, custom.const));
    if (schema.enum) checks.push(enumCheck(schema.enum, custom.enum));
    checks.push(...numberChecks(schema, custom), ...stringChecks(schema, custom, this.compilePattern), ...this.arrayChecks(schema, custom), ...this.objectChecks(schema));
    checks.push(...this.combinatorChecks(schema, custom), ...this.conditionalChecks(schema));
    const rest = sequence(checks);
    if (schema.type === undefined) return rest;
    const typeCheck = this.typeCheck(([] as JsonSchemaType[]).concat(schema.type), custom.type);
    return (value, path, issues) => {
      const before = issues.length;
      const typed = typeCheck(value, path, issues);
      // After a wrong type, the other checks would only add noise.
      return issues.length === before ? rest(typed, path, issues) : typed;
    };
  }

  private compileRef(ref: string): Check {
    const cached = this.refs.get(ref);
    if (cached) return cached;
    const target = resolvePointer(this.root, ref) as SchemaNode | undefined;
    if (target === undefined) throw new ToolwrightError(`Cannot resolve $ref '${ref}': only references inside the schema ('#/$defs/<name>') are supported.`);
    let compiled: Check | undefined;
    // Registered before compiling so recursive references find it.
    const lazy: Check = (value, path, issues) => compiled!(value, path, issues);
    this.refs.set(ref, lazy);
    compiled = this.compile(target);
    return lazy;
  }

  private typeCheck(types: JsonSchemaType[], custom: CustomMessage | undefined): Check {
    const expected = types.map(article).join(' or ');
    const coerce = this.coerce;
    return (value, path, issues) => {
      for (const t of types) if (hasType(value, t)) return value;
      if (coerce && typeof value === 'string') {
        for (const t of types) {
          const converted = coerceString(value, t);
          if (converted !== undefined) return converted;
        }
      }
      issues.push({
        path,
        message: custom ? custom(value) : coerce && isInexactInteger(value, types) ? `${INEXACT_INTEGER} (got ${describe(value)})` : `must be ${expected} (got ${describe(value)})`,
      });
      return value;
    };
  }

  private arrayChecks(schema: JsonSchema, custom: CustomMessages): Check[] {
    const checks: Check[] = [];
    const { minItems, maxItems, uniqueItems } = schema;
    const rules: Rule<unknown[]>[] = [];
    if (minItems !== undefined) rules.push(rule((v) => v.length >= minItems, custom.minItems, `must have at least ${minItems} item${minItems === 1 ? '' : 's'}`));
    if (maxItems !== undefined) rules.push(rule((v) => v.length <= maxItems, custom.maxItems, `must have at most ${maxItems} item${maxItems === 1 ? '' : 's'}`));
    if (rules.length > 0) checks.push(ruleCheck(Array.isArray, rules));
    const prefix = (schema.prefixItems as SchemaNode[] | undefined)?.map((s) => this.compile(s)) ?? [];
    const items = (schema.items as SchemaNode | undefined) === undefined ? undefined : this.compile(schema.items as SchemaNode);
    if (prefix.length > 0 || items) {
      checks.push((value, path, issues) => {
        if (!Array.isArray(value)) return value;
        let out: unknown[] | undefined;
        // Past MAX_COLLECTED_ISSUES the value is invalid whatever the rest holds: stop walking.
        for (let i = 0; i < value.length && issues.length < MAX_COLLECTED_ISSUES; i++) {
          const item = i < prefix.length ? prefix[i] : items;
          if (!item) continue;
          const v = item(value[i], `${path}[${i}]`, issues);
          if (v !== value[i]) (out ??= value.slice())[i] = v;
        }
        return out ?? value;
      });
    }
    // After the items: with `coerce`, it compares the converted values ("1" and 1 are one integer).
    if (uniqueItems) checks.push(ruleCheck(Array.isArray, [rule((v) => new Set(v.map(jsonKey)).size === v.length, custom.uniqueItems, 'must not contain duplicate items')]));
    if ((schema.contains as SchemaNode | undefined) !== undefined) checks.push(this.containsCheck(schema));
    return checks;
  }

  /** `contains` with `minContains` (default 1) and `maxContains`. */
  private containsCheck(schema: JsonSchema): Check {
    const matches = this.compile(schema.contains as SchemaNode);
    const { minContains: min = 1, maxContains: max } = schema;
    const plural = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
    return (value, path, issues) => {
      if (!Array.isArray(value)) return value;
      let count = 0;
      for (let i = 0; i < value.length; i++) {
        const scratch: ValidationIssue[] = [];
        matches(value[i], path, scratch);
        if (scratch.length === 0) count++;
      }
      if (count < min) issues.push({ path, message: `must contain at least ${plural(min)} matching the allowed item shape (found ${count})` });
      if (max !== undefined && count > max) issues.push({ path, message: `must contain at most ${plural(max)} matching the allowed item shape (found ${count})` });
      return value;
    };
  }

  private objectChecks(schema: JsonSchema): Check[] {
    const { properties = {}, required = [], additionalProperties } = schema;
    const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, SchemaNode>).map(([source, s]) => [this.compilePattern(source), this.compile(s)] as const);
    const checks = this.objectCountChecks(schema);
    if (!schema.properties && !schema.required && additionalProperties === undefined && patterns.length === 0) return checks;
    const props = Object.entries(properties as Record<string, SchemaNode>).map(([key, s]) => [key, this.compile(s)] as const);
    const known = new Set(Object.keys(properties));
    const extra = typeof additionalProperties === 'object' ? this.compile(additionalProperties) : undefined;
    const forbidExtra = additionalProperties === false;
    checks.push((value, path, issues) => {
      if (!isPlainObject(value)) return value;
      let out: Record<string, unknown> | undefined;
      for (const key of required) {
        if (!Object.hasOwn(value, key) || value[key] === undefined) issues.push({ path: join(path, key), message: 'is required' });
      }
      for (const [key, check] of props) {
        if (!Object.hasOwn(value, key)) continue;
        const v = value[key];
        if (v === undefined) continue;
        const next = check(v, join(path, key), issues);
        if (next !== v) (out ??= { ...value })[key] = next;
      }
      if (forbidExtra || extra || patterns.length > 0) {
        // for-in, not Object.keys: no array per object per call; inherited keys are skipped below.
        for (const key in value) {
          if (issues.length >= MAX_COLLECTED_ISSUES) break;
          if (!Object.hasOwn(value, key)) continue;
          let matched = known.has(key);
          for (const [re, check] of patterns) {
            if (!re.test(key)) continue;
            matched = true;
            const v = (out ?? value)[key];
            const next = check(v, join(path, key), issues);
            if (next !== v) (out ??= { ...value })[key] = next;
          }
          if (matched) continue;
          if (forbidExtra) issues.push({ path: join(path, key), message: 'is not allowed (unknown property)' });
          else if (extra) extra(value[key], join(path, key), issues);
        }
      }
      return out ?? value;
    });
    return checks;
  }

  /** `minProperties`, `maxProperties`, `propertyNames`, `dependentRequired` and `dependentSchemas`. */
  private objectCountChecks(schema: JsonSchema): Check[] {
    const checks: Check[] = [];
    const { minProperties: min, maxProperties: max, dependentRequired } = schema;
    const plural = (n: number) => `${n} propert${n === 1 ? 'y' : 'ies'}`;
    if (min !== undefined || max !== undefined) {
      checks.push((value, path, issues) => {
        if (!isPlainObject(value)) return value;
        const count = Object.keys(value).length;
        if (min !== undefined && count < min) issues.push({ path, message: `must have at least ${plural(min)}` });
        if (max !== undefined && count > max) issues.push({ path, message: `must have at most ${plural(max)}` });
        return value;
      });
    }
    if ((schema.propertyNames as SchemaNode | undefined) !== undefined) {
      const name = this.compile(schema.propertyNames as SchemaNode);
      checks.push((value, path, issues) => {
        if (!isPlainObject(value)) return value;
        for (const key of Object.keys(value)) {
          if (issues.length >= MAX_COLLECTED_ISSUES) break;
          const scratch: ValidationIssue[] = [];
          name(key, '', scratch);
          if (scratch.length > 0) issues.push({ path: join(path, key), message: `is not an allowed property name (the name ${scratch[0].message})` });
        }
        return value;
      });
    }
    if (dependentRequired) {
      const rules = Object.entries(dependentRequired);
      checks.push((value, path, issues) => {
        if (!isPlainObject(value)) return value;
        for (const [trigger, needed] of rules) {
          if (!Object.hasOwn(value, trigger)) continue;
          for (const key of needed) if (!Object.hasOwn(value, key)) issues.push({ path: join(path, key), message: `is required when '${trigger}' is present` });
        }
        return value;
      });
    }
    if (schema.dependentSchemas) {
      const rules = Object.entries(schema.dependentSchemas as Record<string, SchemaNode>).map(([trigger, s]) => [trigger, this.compile(s)] as const);
      checks.push((value, path, issues) => {
        if (!isPlainObject(value)) return value;
        let v = value;
        for (const [trigger, check] of rules) if (Object.hasOwn(value, trigger)) v = check(v, path, issues) as Record<string, unknown>;
        return v;
      });
    }
    return checks;
  }

  /**
   * A union of object shapes told apart by one property's `const` (a discriminated `@Type`):
   * the value's tag picks the one branch that can match, so the messages name that branch's
   * fields ("shape.radius: must be a number") instead of "does not match any allowed shape".
   * Same outcome as trying every branch: the others fail on the tag.
   */
  private discriminatedCheck({ property, branches }: Discriminated): Check {
    const byTag = new Map(branches.map(({ tag, schema }) => [tag, this.compile(schema)] as const));
    const tags = [...byTag.keys()].map((t) => JSON.stringify(t)).join(', ');
    return (value, path, issues) => {
      if (!isPlainObject(value)) {
        issues.push({ path, message: `must be an object (got ${describe(value)})` });
        return value;
      }
      const branch = Object.hasOwn(value, property) ? byTag.get(value[property]) : undefined;
      if (branch) return branch(value, path, issues);
      issues.push({ path: join(path, property), message: value[property] === undefined ? `is required (one of: ${tags})` : `must be one of: ${tags} (got ${JSON.stringify(value[property])})` });
      return value;
    };
  }

  /** `if` / `then` / `else`: the outcome of `if` picks which of the two applies; `if` itself never reports. */
  private conditionalChecks(schema: JsonSchema): Check[] {
    if ((schema.if as SchemaNode | undefined) === undefined) return [];
    const test = this.compile(schema.if as SchemaNode);
    const then = (schema.then as SchemaNode | undefined) === undefined ? undefined : this.compile(schema.then as SchemaNode);
    const otherwise = (schema.else as SchemaNode | undefined) === undefined ? undefined : this.compile(schema.else as SchemaNode);
    if (!then && !otherwise) return [];
    return [
      (value, path, issues) => {
        const scratch: ValidationIssue[] = [];
        test(value, path, scratch);
        const branch = scratch.length === 0 ? then : otherwise;
        return branch ? branch(value, path, issues) : value;
      },
    ];
  }

  private combinatorChecks(schema: JsonSchema, custom: CustomMessages): Check[] {
    const checks: Check[] = [];
    if (schema.allOf) checks.push(sequence((schema.allOf as SchemaNode[]).map((s) => this.compile(s))));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const tagged = discriminatorOf(schema[key] as SchemaNode[] | undefined, this.root);
      if (tagged) {
        checks.push(this.discriminatedCheck(tagged));
        continue;
      }
      const formats = key === 'anyOf' ? formatAlternatives(schema.anyOf as SchemaNode[] | undefined) : undefined;
      if (formats) {
        checks.push(formatsCheck(formats, custom.anyOf));
        continue;
      }
      const branches = (schema[key] as SchemaNode[] | undefined)?.map((s) => this.compile(s));
      if (!branches) continue;
      const exactlyOne = key === 'oneOf';
      checks.push((value, path, issues) => {
        let matched = 0;
        let result = value;
        let firstIssues: ValidationIssue[] | undefined;
        for (const branch of branches) {
          const branchIssues: ValidationIssue[] = [];
          const out = branch(value, path, branchIssues);
          if (branchIssues.length === 0) {
            if (matched++ === 0) result = out;
            if (!exactlyOne) break;
          } else firstIssues ??= branchIssues;
        }
        if (matched === 0 && custom[key]) issues.push({ path, message: custom[key](value) });
        else if (matched === 0)
          issues.push(...(branches.length === 1 && firstIssues ? firstIssues : [{ path, message: `does not match any allowed shape${firstIssues?.[0] ? ` (${firstIssues[0].message})` : ''}` }]));
        else if (exactlyOne && matched > 1) issues.push({ path, message: 'matches more than one allowed shape' });
        return result;
      });
    }
    if ((schema.not as SchemaNode | undefined) !== undefined) {
      const not = this.compile(schema.not as SchemaNode);
      checks.push((value, path, issues) => {
        const inner: ValidationIssue[] = [];
        not(value, path, inner);
        if (inner.length === 0) issues.push({ path, message: 'is not allowed' });
        return value;
      });
    }
    return checks;
  }
}

interface Discriminated {
  readonly property: string;
  readonly branches: readonly { readonly tag: unknown; readonly schema: JsonSchema }[];
}

/**
 * The shared tag property of union branches that are all `type: 'object'`, all require it
 * and pin it with distinct primitive `const`s; undefined for any other union. A branch that
 * is a `$ref` (a recursive class's branch) is read where it points; it is compiled as given.
 */
function discriminatorOf(nodes: readonly SchemaNode[] | undefined, root: JsonSchema): Discriminated | undefined {
  if (!nodes || nodes.length < 2) return undefined;
  const shapes = nodes.map((n) => objectShape(n, root));
  if (shapes.some((s) => s === undefined)) return undefined;
  const schemas = shapes as JsonSchema[];
  for (const property of schemas[0].required ?? []) {
    const tags = schemas.map((s) => (s.required?.includes(property) ? s.properties?.[property]?.const : undefined));
    if (tags.some((t) => t === undefined || (typeof t === 'object' && t !== null)) || new Set(tags).size !== tags.length) continue;
    return { property, branches: nodes.map((node, i) => ({ tag: tags[i], schema: node as JsonSchema })) };
  }
  return undefined;
}

/**
 * The `type: 'object'` schema a union branch is, following a branch that is only a `$ref`
 * (a chain of them too, a loop not); undefined for any other branch.
 */
function objectShape(node: SchemaNode, root: JsonSchema): JsonSchema | undefined {
  const seen = new Set<string>();
  let current: unknown = node;
  while (isRefOnly(current) && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    current = resolvePointer(root, current.$ref);
  }
  return typeof current === 'object' && current !== null && (current as JsonSchema).type === 'object' ? (current as JsonSchema) : undefined;
}

/** A schema whose only keyword is `$ref`: it accepts exactly what its target accepts. */
function isRefOnly(node: unknown): node is { $ref: string } {
  return typeof node === 'object' && node !== null && typeof (node as JsonSchema).$ref === 'string' && Object.keys(node).length === 1;
}

function sequence(checks: Check[]): Check {
  if (checks.length === 0) return (value) => value;
  if (checks.length === 1) return checks[0];
  return (value, path, issues) => {
    let v = value;
    for (const check of checks) v = check(v, path, issues);
    return v;
  };
}

/** One keyword's test and its message (the app's own, or Toolwright's). */
interface Rule<T> {
  readonly ok: (value: T) => boolean;
  readonly message: (value: T) => string;
}

function rule<T>(ok: (value: T) => boolean, custom: CustomMessage | undefined, message: string): Rule<T> {
  return { ok, message: custom ?? (() => message) };
}

/** Runs `rules` on values that pass `applies`; other values are the type check's business. */
function ruleCheck<T>(applies: (value: unknown) => value is T, rules: readonly Rule<T>[]): Check {
  return (value, path, issues) => {
    if (!applies(value)) return value;
    for (const { ok, message } of rules) if (!ok(value)) issues.push({ path, message: message(value) });
    return value;
  };
}

const isNumber = (value: unknown): value is number => typeof value === 'number';
const isString = (value: unknown): value is string => typeof value === 'string';

function numberChecks(s: JsonSchema, custom: CustomMessages): Check[] {
  const rules: Rule<number>[] = [];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = s;
  if (minimum !== undefined) rules.push(rule((n) => n >= minimum, custom.minimum, `must be at least ${minimum}`));
  if (maximum !== undefined) rules.push(rule((n) => n <= maximum, custom.maximum, `must be at most ${maximum}`));
  if (exclusiveMinimum !== undefined) rules.push(rule((n) => n > exclusiveMinimum, custom.exclusiveMinimum, `must be greater than ${exclusiveMinimum}`));
  if (exclusiveMaximum !== undefined) rules.push(rule((n) => n < exclusiveMaximum, custom.exclusiveMaximum, `must be less than ${exclusiveMaximum}`));
  if (multipleOf !== undefined) rules.push(rule((n) => isMultipleOf(n, multipleOf), custom.multipleOf, `must be a multiple of ${multipleOf}`));
  return rules.length === 0 ? [] : [ruleCheck(isNumber, rules)];
}

function stringChecks(s: JsonSchema, custom: CustomMessages, compilePattern: PatternCompiler): Check[] {
  const rules: Rule<string>[] = [];
  const { minLength: min, maxLength: max, pattern, format } = s;
  // A code point takes one or two UTF-16 units, so `length` alone often decides.
  // The count stops one past the bound: a 50 MB string is not walked to the end to learn it is over 10.
  if (min !== undefined) rules.push(rule((v) => v.length >= 2 * min || codePoints(v, min) >= min, custom.minLength, min === 1 ? 'must not be empty' : `must be at least ${min} characters long`));
  if (max !== undefined) rules.push(rule((v) => v.length <= max || codePoints(v, max + 1) <= max, custom.maxLength, `must be at most ${max} character${max === 1 ? '' : 's'} long`));
  if (pattern !== undefined) {
    const re = compilePattern(pattern);
    rules.push(rule((v) => re.test(v), custom.pattern, `must match the pattern ${pattern}`));
  }
  const check = format === undefined ? undefined : formatCheck(format);
  if (check) rules.push({ ok: check, message: custom.format ?? ((v) => formatRefusal([format as string], v)) });
  return rules.length === 0 ? [] : [ruleCheck(isString, rules)];
}

/**
 * The formats of an `anyOf` whose every branch is only a format Toolwright checks
 * (`anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }]`, as `@IsIP()` gives): refused with one
 * message naming each form, not "does not match any allowed shape".
 */
function formatAlternatives(branches: readonly SchemaNode[] | undefined): string[] | undefined {
  if (!branches || branches.length === 0) return undefined;
  const formats: string[] = [];
  for (const branch of branches) {
    if (typeof branch !== 'object' || Object.keys(branch).length !== 1 || typeof branch.format !== 'string' || !formatCheck(branch.format)) return undefined;
    formats.push(branch.format);
  }
  return formats;
}

/** A string must be one of `formats`; other values pass, as a format-only branch lets them. */
function formatsCheck(formats: readonly string[], custom: CustomMessage | undefined): Check {
  const checks = formats.map((f) => formatCheck(f)!);
  return (value, path, issues) => {
    if (typeof value === 'string' && !checks.some((ok) => ok(value))) issues.push({ path, message: custom ? custom(value) : formatRefusal(formats, value) });
    return value;
  };
}

function enumCheck(values: readonly unknown[], custom: CustomMessage | undefined): Check {
  const allowed = new Set(values);
  // Objects and arrays compare by value (JSON equality), not identity.
  const structured = values.filter((v) => typeof v === 'object' && v !== null);
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  return (value, path, issues) => {
    if (!allowed.has(value) && !(typeof value === 'object' && value !== null && structured.some((v) => jsonEqual(v, value))))
      issues.push({ path, message: custom ? custom(value) : `must be one of: ${list} (got ${JSON.stringify(value) ?? 'undefined'})` });
    return value;
  };
}

function constCheck(expected: unknown, custom: CustomMessage | undefined): Check {
  const json = JSON.stringify(expected);
  return (value, path, issues) => {
    if (value !== expected && !jsonEqual(value, expected)) issues.push({ path, message: custom ? custom(value) : `must be ${json}` });
    return value;
  };
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
  }
}

/** Whether `n` is a multiple of `m`, allowing for binary floating point (0.0075 is a multiple of 0.0001). */
function isMultipleOf(n: number, m: number): boolean {
  // Between safe integers the remainder is exact (a large n / m rounds to an integer that is no
  // proof). Past 2^53 the number is already a rounding of what the client wrote
  // (-135877247725664220 arrives as ...224), so the quotient decides, as in Ajv.
  if (Number.isInteger(n) && Number.isInteger(m) && Number.isSafeInteger(n)) return n % m === 0;
  const q = n / m;
  if (!Number.isFinite(q)) return false;
  // A few units in the last place of q: decimal steps (0.3 of 0.1) pass, while a large
  // quotient's visible fraction (6538580383.35) and a tiny value next to 0 (8.4e-323 of 0.5) do not.
  return Number.isInteger(q) || Math.abs(q - Math.round(q)) <= 4 * Number.EPSILON * Math.abs(q);
}

/** Integers and numbers as JSON writes them: one spelling per value, so `0x1`, `+1`, `01`, `1e0`, `1.0` or ` 1` are not the integer 1. */
const CANONICAL: Partial<Record<JsonSchemaType, RegExp>> = {
  integer: /^(?:0|-?[1-9]\d*)$/,
  number: /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/,
};

const INEXACT_INTEGER = `must be an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} to be converted exactly`;

/** A string spelling an integer that only an integer schema could take, too large to convert without rounding. */
function isInexactInteger(value: unknown, types: readonly JsonSchemaType[]): boolean {
  return typeof value === 'string' && types.includes('integer') && !types.includes('number') && CANONICAL.integer!.test(value);
}

function coerceString(value: string, type: JsonSchemaType): unknown {
  const canonical = CANONICAL[type];
  if (canonical) {
    if (!canonical.test(value)) return undefined;
    const n = Number(value);
    return hasType(n, type) && (type !== 'integer' || Number.isSafeInteger(n)) ? n : undefined;
  }
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

function article(type: JsonSchemaType): string {
  return type === 'integer' || type === 'object' || type === 'array' ? `an ${type}` : type === 'null' ? 'null' : `a ${type}`;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The code points of `value`, counted up to `limit` at most. */
function codePoints(value: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < value.length && n < limit; i++, n++) {
    const unit = value.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return n;
}
