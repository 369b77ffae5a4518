import type { JsonSchema } from '../schema/JsonSchema';
import { describeProfileIssues, schemaProfileIssues } from '../validation/schemaProfile';
import type { BuildProblem } from './BuildProblem';

/** Reports, as one build problem at `where`, every keyword of `schema` that the validator would not enforce. */
export function checkSchemaProfile(schema: JsonSchema, where: string, problems: BuildProblem[]): boolean {
  const issues = schemaProfileIssues(schema);
  if (issues.length === 0) return true;
  problems.push({ where, ...describeProfileIssues(issues) });
  return false;
}
