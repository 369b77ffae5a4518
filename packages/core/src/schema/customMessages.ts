import type { JsonSchema } from './JsonSchema';

/** A keyword's message for a failing value, from a class-validator `message` option. */
export type CustomMessage = (value: unknown) => string;

/** Keyword (`minLength`, `enum`, `type`, ...) -> the message the app chose for it. */
export type CustomMessages = Readonly<Record<string, CustomMessage>>;

/**
 * The messages are kept beside the schema, not in it: the advertised schema stays plain
 * JSON Schema, and the validator compiled from the same object still finds them.
 */
const bySchema = new WeakMap<JsonSchema, CustomMessages>();

export function setCustomMessages(schema: JsonSchema, messages: CustomMessages): void {
  bySchema.set(schema, messages);
}

export function customMessagesOf(schema: JsonSchema): CustomMessages | undefined {
  return bySchema.get(schema);
}

/**
 * class-validator's message tokens: `$property`, `$target` (the class), `$value`, and
 * `$constraint1`, `$constraint2`, ... (the decorator's arguments).
 */
export function compileCustomMessage(template: string, property: string, target: string, args: readonly unknown[]): CustomMessage {
  const fixed = template
    .replace(/\$constraint(\d+)/g, (token, n: string) => (Number(n) >= 1 && Number(n) <= args.length ? String(args[Number(n) - 1]) : token))
    .replace(/\$property/g, property)
    .replace(/\$target/g, target);
  if (!fixed.includes('$value')) return () => fixed;
  return (value) => fixed.replace(/\$value/g, typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}
