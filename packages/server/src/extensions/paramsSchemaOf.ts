import { compileSchemaValidator, type JsonSchema } from '@toolwright/core';
import type { StandardSchemaV1 } from '../sdk/sdk';
import type { ParamsSchema } from './Extension';

/**
 * The Standard Schema the SDK checks an extension method's params with: the method's own
 * (a Standard Schema as given; a JSON Schema through Toolwright's validator, so each issue
 * names its field), or one that takes any object. The protocol's `_meta` is not the
 * method's: it is left out of what the schema sees, and of what the handler gets.
 */
export function paramsSchemaOf(method: string, schema: JsonSchema | ParamsSchema | undefined): StandardSchemaV1 {
  const validate = checkOf(method, schema);
  return {
    '~standard': {
      version: 1,
      vendor: 'toolwright',
      validate: (value: unknown) => {
        const params = isObject(value) ? withoutMeta(value) : value;
        return validate(params);
      },
    },
  } as StandardSchemaV1;
}

type Check = (params: unknown) => unknown;

function checkOf(method: string, schema: JsonSchema | ParamsSchema | undefined): Check {
  if (schema === undefined) return (params) => (isObject(params) ? { value: params } : { issues: [{ message: 'params must be an object' }] });
  if (isStandardSchema(schema)) return (params) => schema['~standard'].validate(params);
  const check = compileSchemaValidator({ type: 'object', ...schema });
  return (params) => {
    const outcome = check(params ?? {});
    if (outcome.ok) return { value: outcome.value };
    return { issues: outcome.issues.map((i) => ({ message: `${i.path ? `params.${i.path}` : 'params'} ${i.message}` })) };
  };
}

function isStandardSchema(schema: object): schema is ParamsSchema {
  return Object.hasOwn(schema, '~standard') || '~standard' in schema;
}

function withoutMeta(params: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(params, '_meta')) return params;
  const { _meta: _, ...rest } = params;
  return rest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
