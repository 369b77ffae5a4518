import type { BuildProblem } from './BuildProblem';

/** The problem of a decorator given something else than its options object, or undefined. */
export function optionsObjectProblem(where: string, decorator: string, options: unknown, example: string): BuildProblem | undefined {
  if (typeof options === 'object' && options !== null && !Array.isArray(options)) return undefined;
  const given = options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options === 'string' ? `the string '${options}'` : `a ${typeof options}`;
  return { where, what: `${decorator} takes an options object, but was given ${given}`, fix: `pass the options as an object: ${example}.` };
}
