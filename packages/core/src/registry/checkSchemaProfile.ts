import type { JsonSchema } from '../schema/JsonSchema';
import type { PatternCompiler } from '../validation/PatternCompiler';
import { describeProfileIssues, schemaProfileIssues } from '../validation/schemaProfile';
import type { BuildProblem } from './BuildProblem';

/** Reports, as one build problem at `where`, every keyword of `schema` that the validator would not enforce (and every pattern `compilePattern` refuses). */
export function checkSchemaProfile(schema: JsonSchema, where: string, problems: BuildProblem[], compilePattern?: PatternCompiler): boolean {
  const issues = schemaProfileIssues(schema, compilePattern);
  if (issues.length === 0) return true;
  problems.push({ where, ...describeProfileIssues(issues) });
  return false;
}
