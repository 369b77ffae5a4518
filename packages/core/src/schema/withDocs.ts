import { X_MCP_HEADER } from '../headers/paramHeaders';
import { describeProfileIssues, schemaProfileIssues } from '../validation/schemaProfile';
import type { JsonSchema } from './JsonSchema';
import type { PropertyDocs } from './propertyDocs';
import { reportProblem } from './reportProblem';
import type { SchemaContext } from './SchemaContext';

/** A copy of `schema` with the `@Property` docs (title, description, default, examples, deprecated, header). */
export function withDocs(schema: JsonSchema, docs: PropertyDocs): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (docs.title !== undefined) out.title = docs.title;
  if (docs.description !== undefined) out.description = docs.description;
  if (docs.default !== undefined) out.default = docs.default;
  if (docs.examples !== undefined) out.examples = [...docs.examples];
  if (docs.deprecated !== undefined) out.deprecated = docs.deprecated;
  if (docs.header !== undefined) out[X_MCP_HEADER] = docs.header;
  return out;
}

/** `@Property({ schema })`, served as given (with the other docs) once its keywords are known to be enforceable. */
export function givenSchema(docs: PropertyDocs, at: string, ctx: SchemaContext): JsonSchema {
  const issues = schemaProfileIssues(docs.schema);
  if (issues.length > 0) {
    const { what, fix } = describeProfileIssues(issues);
    reportProblem(ctx, at, `its @Property schema ${what}`, fix);
  }
  return withDocs(structuredClone(docs.schema!), docs);
}
