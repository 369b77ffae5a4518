import type { JsonSchema } from '../schema/JsonSchema';
import { customMessagesOf, setCustomMessages } from '../schema/customMessages';
import { compileProfileSchema } from './compileSchemaValidator';
import type { PatternCompiler } from './PatternCompiler';
import type { ValidationOutcome } from './ValidationIssue';

/** How many of a refused default's issues its build problem lists. */
const LISTED = 3;

/**
 * Why `schema` (a parameter's or property's own schema, its `default` aside) refuses its
 * `default`, in the words of the validator that checks arguments at call time (with the same
 * custom messages and pattern compiler, without coercion: a default reaches the method as
 * written); undefined when the default passes, or when the schema cannot be compiled (other
 * checks of the build report that). `defs` are the root `$defs` its `$ref`s point into; an
 * issue inside the value is named from `name`, as a call's would be (`tags[1]`, `at.y`).
 * Runs once per default, at build.
 */
export function defaultRefusal(schema: JsonSchema, value: unknown, name: string, defs: Readonly<Record<string, JsonSchema>>, compilePattern?: PatternCompiler): string | undefined {
  const own: JsonSchema = { ...schema };
  delete own.default;
  const messages = customMessagesOf(schema);
  if (messages) setCustomMessages(own, messages);
  if (Object.keys(defs).length > 0) own.$defs = { ...defs, ...schema.$defs };
  let outcome: ValidationOutcome;
  try {
    outcome = compileProfileSchema(own, { compilePattern })(value);
  } catch {
    return undefined;
  }
  if (outcome.ok) return undefined;
  const { issues } = outcome;
  const listed = issues.slice(0, LISTED).map((i) => (i.path ? `${name}${i.path.startsWith('[') ? '' : '.'}${i.path}: ${i.message}` : i.message));
  if (issues.length > LISTED) listed.push(`and ${issues.length - LISTED} more`);
  return listed.join('; ');
}

/** A default as a message shows it: its JSON, cut short. */
export function describeDefault(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
