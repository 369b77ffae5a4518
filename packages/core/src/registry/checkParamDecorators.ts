import type { ParamArgs } from '../metadata/ParamOptions';
import type { BuildProblem } from './BuildProblem';
import { optionsObjectProblem } from './optionsObjectProblem';
import { PARAM_OPTIONS_SHAPE, shapeProblem } from './descriptorShapes';

/**
 * Checks the parameter decorators of one method (tool, resource template, prompt) and
 * indexes them by position: one decorator per parameter, distinct non-empty `@Param`
 * names that are strings, options of the types they take, at most one `@Ctx()` (and one
 * `@Args()` where allowed), and, up to `arity`, no parameter left undecorated (Toolwright
 * could not tell what to pass).
 */
export function checkParamDecorators(where: string, params: readonly ParamArgs[], arity: number, problems: BuildProblem[], allowArgs: boolean): Map<number, ParamArgs> {
  const decorators = allowArgs ? '@Param, @Args and @Ctx' : '@Param and @Ctx';
  const byIndex = new Map<number, ParamArgs>();
  const names = new Set<string>();
  for (const p of params) {
    const named = typeof p.name === 'string';
    const at = `${where} param #${p.index}${named && p.name ? ` '${p.name}'` : ''}`;
    if (byIndex.has(p.index)) problems.push({ where: at, what: 'has more than one Toolwright parameter decorator', fix: `keep one of ${decorators}.` });
    byIndex.set(p.index, p);
    if (p.kind !== 'param') continue;
    if (!named) problems.push({ where: at, what: `has an argument name that is not a string (${typeof p.name})`, fix: "pass the name first: @Param('city', { description: '...' })." });
    else if (!p.name) problems.push({ where: at, what: 'has an empty argument name', fix: "name it: @Param('city')." });
    else if (names.has(p.name)) problems.push({ where: at, what: `repeats the argument name '${p.name}'`, fix: 'give each @Param a distinct name.' });
    names.add(p.name ?? '');
    const notOptions = p.options === undefined ? undefined : optionsObjectProblem(at, '@Param()', p.options, "@Param('city', { description: 'City name' })");
    if (notOptions) problems.push(notOptions);
    const mistyped = notOptions || p.options === undefined ? undefined : shapeProblem(p.options, PARAM_OPTIONS_SHAPE);
    if (mistyped) problems.push({ where: at, what: `its option ${mistyped}`, fix: 'give it the type of the JSON Schema keyword it becomes, as @Param types it.' });
  }
  for (let i = 0; i < arity; i++) {
    if (!byIndex.has(i)) {
      problems.push({
        where: `${where} param #${i}`,
        what: 'has no decorator, so Toolwright cannot tell what to pass',
        fix: `mark it with ${allowArgs ? "@Param('name'), @Args() or @Ctx()" : "@Param('name') or @Ctx()"}.`,
      });
    }
  }
  if (params.filter((p) => p.kind === 'ctx').length > 1) problems.push({ where, what: 'has more than one @Ctx()', fix: 'take the context once.' });
  if (allowArgs && params.filter((p) => p.kind === 'args').length > 1) problems.push({ where, what: 'has more than one @Args()', fix: 'take the whole input as one DTO.' });
  return byIndex;
}

const NO_TYPE_INFORMATION = 'has no type information: decorator metadata was not emitted (esbuild, tsx, vitest and Bun drop it)';

/** The problem of a `@Param` whose type would come from decorator metadata that was not emitted. */
export function missingMetadataProblem(at: string): BuildProblem {
  return {
    where: at,
    what: NO_TYPE_INFORMATION,
    fix: 'compile with tsc or swc with `emitDecoratorMetadata`/`decoratorMetadata: true`, or give the type: { type: () => String }.',
  };
}

/** Whether a problem is one `missingMetadataProblem` made (`reportMissingMetadata` gathers them into one when metadata is off). */
export function isMissingMetadataProblem(problem: BuildProblem): boolean {
  return problem.what === NO_TYPE_INFORMATION;
}
