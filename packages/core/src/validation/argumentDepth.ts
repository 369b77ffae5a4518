import { MAX_JSON_DEPTH } from '../invoke/jsonProblem';
import type { ValidationIssue } from './ValidationIssue';

/**
 * How many levels of objects and arrays a call's arguments may nest below the arguments
 * object: `{ a: [[1]] }` nests 2. The validators, class-transformer, class-validator, the
 * cache key and the round binding all recurse once per level; past a few thousand levels
 * they exhaust the stack. One level more than a result may have (`MAX_JSON_DEPTH`), so a
 * tool can return any one argument as it came.
 */
export const MAX_ARGUMENT_DEPTH = MAX_JSON_DEPTH;

/**
 * The issue of arguments that nest deeper than `MAX_ARGUMENT_DEPTH`, at the path of the
 * first value too deep (`data[0][0]…[0][0]`); undefined when they do not. Checked before
 * any validator sees the arguments. The walk stops at the limit, so its own recursion is
 * bounded, and it spells a path out only for the value it reports.
 */
export function argumentDepthIssue(args: unknown, limit: number = MAX_ARGUMENT_DEPTH): ValidationIssue | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const keys: (string | number)[] = [];
  if (!tooDeep(args, 0, limit, keys)) return undefined;
  return { path: pathOf(keys), message: `nests deeper than ${limit} levels of objects and arrays: flatten it, or send it as text.` };
}

/** Whether a container below `value` (at `depth`) sits deeper than `limit`; `keys` then leads to it. */
function tooDeep(value: object, depth: number, limit: number, keys: (string | number)[]): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      keys.push(i);
      if (depth + 1 > limit || tooDeep(item, depth + 1, limit, keys)) return true;
      keys.pop();
    }
    return false;
  }
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item !== 'object' || item === null || !Object.hasOwn(value, key)) continue;
    keys.push(key);
    if (depth + 1 > limit || tooDeep(item, depth + 1, limit, keys)) return true;
    keys.pop();
  }
  return false;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `data.items[2]`, as the validators write paths; more than 12 steps keep their first and last 5. */
function pathOf(keys: readonly (string | number)[]): string {
  const step = (key: string | number, first: boolean): string => (typeof key === 'number' ? `[${key}]` : !IDENTIFIER.test(key) ? `[${JSON.stringify(key)}]` : first ? key : `.${key}`);
  if (keys.length <= 12) return keys.map((k, i) => step(k, i === 0)).join('');
  const head = keys.slice(0, 5).map((k, i) => step(k, i === 0));
  const tail = keys.slice(-5).map((k) => step(k, false));
  return `${head.join('')}…${tail.join('')}`;
}
