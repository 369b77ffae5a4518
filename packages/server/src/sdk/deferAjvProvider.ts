import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { seedModuleCache } from './seedModuleCache';

// The SDK's internals: its runtime shims.

/**
 * `@modelcontextprotocol/server/_shims` is the SDK's seam for what differs between runtimes.
 * Its Node build loads the SDK's Ajv provider (about 290 KB of code and 1 MB of heap) so that
 * every `Server` can construct a default JSON Schema validator, which the SDK uses only in
 * `elicitInput` and `fromJsonSchema`; Toolwright checks elicitation answers itself. This puts
 * the same shims in the module cache with a validator that loads Ajv when it is first asked
 * for a schema. Returns false when the SDK's shims were already loaded.
 */
export function deferAjvProvider(): boolean {
  let file: string;
  try {
    file = require.resolve('@modelcontextprotocol/server/_shims');
  } catch {
    return false;
  }
  return seedModuleCache(file, { DefaultJsonSchemaValidator: DeferredAjvValidator, process });
}

/** The SDK's `AjvJsonSchemaValidator`, loaded and constructed on the first `getValidator`. */
class DeferredAjvValidator implements jsonSchemaValidator {
  #validator?: AjvJsonSchemaValidator;

  constructor(private readonly ajv?: ConstructorParameters<typeof AjvJsonSchemaValidator>[0]) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (!this.#validator) {
      const { AjvJsonSchemaValidator: Validator } = require('@modelcontextprotocol/server/validators/ajv') as typeof import('@modelcontextprotocol/server/validators/ajv');
      this.#validator = new Validator(this.ajv);
    }
    return this.#validator.getValidator<T>(schema);
  }
}
