import { compileSchemaValidator, type JsonSchema } from '@toolwright/core';
import { issueLines } from '@toolwright/core/internal';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from './sdk';

/**
 * The JSON Schema validator every server an app makes hands the SDK's `Server`, in place of
 * the SDK's default (ajv under Node, @cfworker/json-schema on workerd). Toolwright checks what a
 * client sends with its own compiled validators; the SDK's `Server` reads this one only in
 * `elicitInput`, to check a form's answer against the form's schema, which Toolwright never calls
 * (`ctx.elicit` sends the request itself) and an app holding the SDK server might. It checks with
 * Toolwright's validator, whose JSON Schema 2020-12 profile covers every elicitation form; a
 * schema outside the profile is refused with a message that names the keyword and its fix.
 *
 * Since no server of Toolwright's makes the SDK's default, a Worker's bundle can leave it out
 * (examples/edge/scripts/bundleWorker.mjs).
 */
export const schemaValidatorProvider: jsonSchemaValidator = Object.freeze({
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const check = compileSchemaValidator(schema as JsonSchema);
    return (input: unknown) => {
      const outcome = check(input);
      return outcome.ok ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: issueLines(outcome.issues, '(content)') };
    };
  },
});
