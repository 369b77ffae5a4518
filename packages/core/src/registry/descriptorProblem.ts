import type { BuildProblem } from './BuildProblem';
import { shapeProblem, type DescriptorShape } from './descriptorShapes';

/** Objects a list would send as `{}` (or not at all): refused rather than sent emptied. */
const LOSSY: readonly [new (...args: never[]) => object, string][] = [
  [Date, 'a Date'],
  [Map, 'a Map'],
  [Set, 'a Set'],
  [RegExp, 'a RegExp'],
  [Promise, 'a Promise'],
];

/**
 * What in a member's descriptor (built from its decorator options) a list could not send as
 * the app wrote it, as a build problem: a BigInt, a function, a symbol, a number JSON has no
 * form for, `undefined` in an array, a Date, Map, Set or RegExp, or a cycle; or a field of
 * another type than MCP gives it (`shape`), which makes clients refuse the whole list. Found
 * when the app is built, not at the first `tools/list`, which could then only fail.
 */
export function descriptorProblem(descriptor: object, where: string, shape: DescriptorShape): BuildProblem | undefined {
  const unsendable = walk(descriptor, '', new Set());
  if (unsendable !== undefined) {
    return { where, what: `its option ${unsendable}`, fix: 'decorator options go out as JSON: use strings, finite numbers, booleans, null, arrays and plain objects (a date as an ISO string).' };
  }
  const mistyped = shapeProblem(descriptor, shape);
  if (mistyped === undefined) return undefined;
  return { where, what: `its option ${mistyped}`, fix: 'give it the type MCP gives it: clients check each listed descriptor, and one that fails makes the whole list fail.' };
}

function walk(value: unknown, at: string, open: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${at} is ${value}, which JSON has no form for`;
    case 'object':
      break;
    default:
      return `${at} is ${value === undefined ? 'undefined' : `a ${typeof value === 'bigint' ? 'BigInt' : typeof value}`}, which JSON cannot carry`;
  }
  if (value === null) return undefined;
  for (const [type, name] of LOSSY) if (value instanceof type) return `${at} is ${name}, which a list would send as {}`;
  if (open.has(value)) return `${at} refers back to an object that contains it (a cycle)`;
  open.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = walk(value[i], `${at}[${i}]`, open);
        if (problem) return problem;
      }
      return undefined;
    }
    for (const [key, member] of Object.entries(value)) {
      // An undefined member is left out of the list, as JSON leaves it out.
      const problem = member === undefined ? undefined : walk(member, memberPath(at, key), open);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    open.delete(value);
  }
}

/** `annotations.title`, `_meta["example.com/since"]`. */
function memberPath(at: string, key: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(key)) return `${at}[${JSON.stringify(key)}]`;
  return at === '' ? key : `${at}.${key}`;
}
