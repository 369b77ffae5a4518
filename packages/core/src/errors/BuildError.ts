import type { BuildProblem } from '../registry/BuildProblem';
import { ToolwrightError } from './ToolwrightError';

/** Thrown at startup when the decorated classes cannot be served. Lists every problem at once. */
export class BuildError extends ToolwrightError {
  static override readonly KIND = 'build' as const;
  readonly problems: readonly BuildProblem[];

  constructor(problems: readonly BuildProblem[]) {
    super(formatProblems(problems));
    this.problems = problems;
  }
}

function formatProblems(problems: readonly BuildProblem[]): string {
  const lines = problems.map((p, i) => `  ${i + 1}. ${p.where}: ${p.what}\n     Fix: ${p.fix}`);
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return `Toolwright cannot build this app (${problems.length} ${noun}):\n${lines.join('\n')}`;
}
