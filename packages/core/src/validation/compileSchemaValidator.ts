import type { JsonSchema, JsonSchemaType } from '../schema/JsonSchema';
import { customMessagesOf, type CustomMessage, type CustomMessages } from '../schema/customMessages';
import { FORMAT_CHECKS } from './formats';
import type { ValidationIssue, ValidationOutcome } from './ValidationIssue';

/**
 * Compiles a JSON Schema (the subset Toolwright emits, plus `$ref` into root `$defs`)
 * into a validator closure once, so a call pays only for the checks themselves.
 *
 * With `coerce`, strings are converted where the schema wants a number, integer or
 * boolean ("5" -> 5, "true" -> true); otherwise values are never converted.
 */
export function compileSchemaValidator(root: JsonSchema, options: { coerce?: boolean } = {}): (value: unknown) => ValidationOutcome {
  const compiler = new Compiler(root, options.coerce === true);
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
  ) {}

  compile(schema: JsonSchema): Check {
    if (schema.$ref !== undefined) return this.compileRef(schema.$ref);
    const custom = customMessagesOf(schema) ?? {};
    const checks: Check[] = [];
    if (schema.const !== undefined) checks.push(constCheck(schema.const, custom.const));
    if (schema.enum) checks.push(enumCheck(schema.enum, custom.enum));
    checks.push(...numberChecks(schema, custom), ...stringChecks(schema, custom), ...this.arrayChecks(schema, custom), ...this.objectChecks(schema));
    checks.push(...this.combinatorChecks(schema));
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
    const match = /^#\/\$defs\/(.+)$/.exec(ref);
    const target = match ? this.root.$defs?.[match[1]] : undefined;
    if (!target) throw new Error(`Cannot resolve $ref '${ref}': only '#/$defs/<name>' references to the root's $defs are supported.`);
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
      issues.push({ path, message: custom ? custom(value) : `must be ${expected} (got ${describe(value)})` });
      return value;
    };
  }

  private arrayChecks(schema: JsonSchema, custom: CustomMessages): Check[] {
    const checks: Check[] = [];
    const { minItems, maxItems, uniqueItems } = schema;
    const rules: Rule<unknown[]>[] = [];
    if (minItems !== undefined) rules.push(rule((v) => v.length >= minItems, custom.minItems, `must have at least ${minItems} item${minItems === 1 ? '' : 's'}`));
    if (maxItems !== undefined) rules.push(rule((v) => v.length <= maxItems, custom.maxItems, `must have at most ${maxItems} item${maxItems === 1 ? '' : 's'}`));
    if (uniqueItems) rules.push(rule((v) => new Set(v.map((item) => JSON.stringify(item))).size === v.length, custom.uniqueItems, 'must not contain duplicate items'));
    if (rules.length > 0) checks.push(ruleCheck(Array.isArray, rules));
    if (schema.items) {
      const item = this.compile(schema.items);
      checks.push((value, path, issues) => {
        if (!Array.isArray(value)) return value;
        let out: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const v = item(value[i], `${path}[${i}]`, issues);
          if (v !== value[i]) (out ??= value.slice())[i] = v;
        }
        return out ?? value;
      });
    }
    return checks;
  }

  private objectChecks(schema: JsonSchema): Check[] {
    const { properties = {}, required = [], additionalProperties } = schema;
    if (!schema.properties && !schema.required && additionalProperties === undefined) return [];
    const props = Object.entries(properties).map(([key, s]) => [key, this.compile(s)] as const);
    const known = new Set(Object.keys(properties));
    const extra = typeof additionalProperties === 'object' ? this.compile(additionalProperties) : undefined;
    const forbidExtra = additionalProperties === false;
    return [
      (value, path, issues) => {
        if (!isPlainObject(value)) return value;
        let out: Record<string, unknown> | undefined;
        for (const key of required) {
          if (value[key] === undefined) issues.push({ path: join(path, key), message: 'is required' });
        }
        for (const [key, check] of props) {
          const v = value[key];
          if (v === undefined) continue;
          const next = check(v, join(path, key), issues);
          if (next !== v) (out ??= { ...value })[key] = next;
        }
        if (forbidExtra || extra) {
          // for-in, not Object.keys: no array per object per call; inherited keys are skipped below.
          for (const key in value) {
            if (known.has(key) || !Object.hasOwn(value, key)) continue;
            if (forbidExtra) issues.push({ path: join(path, key), message: 'is not allowed (unknown property)' });
            else extra!(value[key], join(path, key), issues);
          }
        }
        return out ?? value;
      },
    ];
  }

  private combinatorChecks(schema: JsonSchema): Check[] {
    const checks: Check[] = [];
    if (schema.allOf) checks.push(sequence(schema.allOf.map((s) => this.compile(s))));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key]?.map((s) => this.compile(s));
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
        if (matched === 0) issues.push(...(branches.length === 1 && firstIssues ? firstIssues : [{ path, message: `does not match any allowed shape${firstIssues?.[0] ? ` (${firstIssues[0].message})` : ''}` }]));
        else if (exactlyOne && matched > 1) issues.push({ path, message: 'matches more than one allowed shape' });
        return result;
      });
    }
    if (schema.not) {
      const not = this.compile(schema.not);
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
  if (multipleOf !== undefined) rules.push(rule((n) => Number.isInteger(n / multipleOf), custom.multipleOf, `must be a multiple of ${multipleOf}`));
  return rules.length === 0 ? [] : [ruleCheck(isNumber, rules)];
}

function stringChecks(s: JsonSchema, custom: CustomMessages): Check[] {
  const rules: Rule<string>[] = [];
  const { minLength: min, maxLength: max, pattern, format } = s;
  // A code point takes one or two UTF-16 units, so `length` alone often decides.
  if (min !== undefined) rules.push(rule((v) => v.length >= 2 * min || codePoints(v) >= min, custom.minLength, min === 1 ? 'must not be empty' : `must be at least ${min} characters long`));
  if (max !== undefined) rules.push(rule((v) => v.length <= max || codePoints(v) <= max, custom.maxLength, `must be at most ${max} characters long`));
  if (pattern !== undefined) {
    const re = new RegExp(pattern, 'u');
    rules.push(rule((v) => re.test(v), custom.pattern, `must match the pattern ${pattern}`));
  }
  if (format !== undefined && FORMAT_CHECKS[format]) rules.push(rule(FORMAT_CHECKS[format], custom.format, `must be a valid ${format}`));
  return rules.length === 0 ? [] : [ruleCheck(isString, rules)];
}

function enumCheck(values: readonly unknown[], custom: CustomMessage | undefined): Check {
  const allowed = new Set(values);
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  return (value, path, issues) => {
    if (!allowed.has(value)) issues.push({ path, message: custom ? custom(value) : `must be one of: ${list} (got ${JSON.stringify(value) ?? 'undefined'})` });
    return value;
  };
}

function constCheck(expected: unknown, custom: CustomMessage | undefined): Check {
  const json = JSON.stringify(expected);
  return (value, path, issues) => {
    if (value !== expected && JSON.stringify(value) !== json) issues.push({ path, message: custom ? custom(value) : `must be ${json}` });
    return value;
  };
}

function hasType(value: unknown, type: JsonSchemaType): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    case 'array': return Array.isArray(value);
    case 'object': return isPlainObject(value);
  }
}

/** Integers and numbers as JSON writes them: one spelling per value, so `0x1`, `+1`, `01`, `1e0`, `1.0` or ` 1` are not the integer 1. */
const CANONICAL: Partial<Record<JsonSchemaType, RegExp>> = {
  integer: /^(?:0|-?[1-9]\d*)$/,
  number: /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/,
};

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

function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}
