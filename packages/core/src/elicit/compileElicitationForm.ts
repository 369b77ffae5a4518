import type { ElicitationSchema } from '../context/ClientRequests';
import type { BuildProblem } from '../registry/BuildProblem';
import { BuildError } from '../errors/BuildError';
import type { Class } from '../metadata/Class';
import { dtoSchema } from '../schema/dtoSchema';
import type { JsonSchema } from '../schema/JsonSchema';
import { createSchemaContext } from '../schema/SchemaContext';
import { compileProfileSchema } from '../validation/compileSchemaValidator';
import { describeProfileIssues, schemaProfileIssues } from '../validation/schemaProfile';
import { compileDtoBuilder } from '../validation/compileDtoBuilder';
import { compileDtoValidator } from '../validation/validateDto';
import type { ValidationOutcome } from '../validation/ValidationIssue';

/** A form to elicit, compiled once: the schema to send and how to read the accepted content. */
export interface ElicitationForm {
  readonly requestedSchema: ElicitationSchema;
  /** Validates accepted content; for a DTO class the value is an instance of it. */
  parse(content: unknown): Promise<ValidationOutcome<object>>;
}

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);
const STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * Compiles an elicitation form from a class-validator DTO (flat properties only) or a raw
 * schema (sent unchanged, and the accepted content is validated against it). Elicitation allows only primitive properties, enums and
 * multi-select arrays of enums; anything else throws a `BuildError` that names the property.
 */
export function compileElicitationForm(form: Class | ElicitationSchema): ElicitationForm {
  if (typeof form !== 'function') {
    const problems = check(form, 'the elicitation schema');
    const checked = withoutEnumNames(form);
    const profile = schemaProfileIssues(checked);
    if (profile.length > 0) problems.push({ where: 'the elicitation schema', ...describeProfileIssues(profile) });
    if (problems.length > 0) throw new BuildError(problems);
    // Clients should check the content against the schema; the server does not rely on it.
    const validate = compileProfileSchema(checked);
    return Object.freeze({ requestedSchema: form, parse: async (content: unknown) => validate(content ?? {}) as ValidationOutcome<object> });
  }
  const problems: BuildProblem[] = [];
  const derived = dtoSchema(form, createSchemaContext(form.name, problems), { direction: 'input' });
  const requestedSchema: ElicitationSchema = { type: 'object', properties: derived.properties ?? {}, ...(derived.required?.length ? { required: derived.required } : {}) };
  problems.push(...check(requestedSchema, form.name));
  if (problems.length > 0) throw new BuildError(problems);
  return Object.freeze({ requestedSchema, parse: compileDtoParse(form, derived) });
}

/**
 * How a DTO form reads accepted content, as a tool reads its DTO arguments: when the class's
 * JSON Schema expresses all its constraints, the compiled schema checks the content and the
 * instance is built from its own keys (so a property named `toString` or `constructor` is read
 * and set like any other); otherwise class-transformer and class-validator run.
 */
function compileDtoParse(form: Class, schema: JsonSchema): ElicitationForm['parse'] {
  const build = compileDtoBuilder(form);
  if (!build) {
    const validate = compileDtoValidator(form, { coerce: false });
    return (content) => validate(content ?? {});
  }
  const check = compileProfileSchema(schema);
  return async (content) => {
    const checked = check(content ?? {});
    return checked.ok ? { ok: true, value: build(checked.value as Record<string, unknown>) } : checked;
  };
}

/**
 * The form without `enumNames`: MCP's legacy titled enums (2025-11-25) label their values
 * with it, an annotation JSON Schema does not define. The form is sent with it, and checked
 * and validated without it.
 */
function withoutEnumNames(form: ElicitationSchema): ElicitationSchema {
  const properties = Object.fromEntries(
    Object.entries(form.properties).map(([name, property]) => {
      const { enumNames: _labels, ...rest } = property as JsonSchema & { enumNames?: unknown };
      return [name, rest];
    }),
  );
  return { ...form, properties };
}

function check(schema: JsonSchema, where: string): BuildProblem[] {
  const problems: BuildProblem[] = [];
  if (schema.type !== 'object' || typeof schema.properties !== 'object') {
    return [{ where, what: 'is not an object schema with properties', fix: "give { type: 'object', properties: { ... } }." }];
  }
  for (const [name, p] of Object.entries(schema.properties)) {
    const at = `${where}.${name}`;
    const fix = 'use a string, number, integer or boolean property, an enum, or an array of enum values (multi-select); elicitation forms are flat.';
    if (p.type === 'array') {
      const items = p.items;
      if (!items || !(items.enum || items.anyOf || items.oneOf)) problems.push({ where: at, what: 'is an array whose items are not enum values', fix });
    } else if (typeof p.type !== 'string' || !PRIMITIVES.has(p.type)) {
      problems.push({ where: at, what: `has type ${JSON.stringify(p.type ?? (p.$ref ? 'a $ref' : 'unknown'))}, which an elicitation form cannot ask for`, fix });
    } else if (p.format !== undefined && !STRING_FORMATS.has(p.format)) {
      problems.push({ where: at, what: `has format '${p.format}'`, fix: 'use one of the formats elicitation allows: email, uri, date, date-time.' });
    }
  }
  return problems;
}
