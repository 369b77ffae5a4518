import type { MemberPipeline } from '../pipeline/PipelineArgs';
import type { BuildProblem } from './BuildProblem';

/** A member's middleware and guards, checked; undefined when it has none (the fast path). */
export function resolvePipeline(pipeline: MemberPipeline, where: string, problems: BuildProblem[]): MemberPipeline | undefined {
  if (pipeline.middleware.length === 0 && pipeline.guards.length === 0) return undefined;
  pipeline.middleware.forEach((m, i) => {
    if (typeof m !== 'function') {
      problems.push({ where, what: `@UseMiddleware argument #${i} is ${describe(m)}, not a middleware`, fix: 'pass a function (call, next) => ... or a class with a use(call, next) method.' });
    }
  });
  pipeline.guards.forEach((g, i) => {
    if (typeof g !== 'function') {
      problems.push({ where, what: `@UseGuards argument #${i} is ${describe(g)}, not a guard`, fix: 'pass a function (access) => boolean or a class with a canActivate(access) method.' });
    }
  });
  return pipeline;
}

function describe(value: unknown): string {
  return value === null ? 'null' : value === undefined ? 'undefined (a class used before its declaration?)' : typeof value;
}
