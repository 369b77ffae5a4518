import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';

/**
 * The SDK `Server` builds an Ajv instance in its constructor (to check elicitation
 * answers), which costs milliseconds and most of a session's memory; most servers never
 * elicit. This one creates it on first use, per server (a shared Ajv would keep every
 * compiled schema forever).
 */
export function lazyJsonSchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}
