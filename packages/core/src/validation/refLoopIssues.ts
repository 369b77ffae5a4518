import { resolvePointer } from './resolvePointer';
import type { SchemaProfileIssue } from './schemaProfile';

/** Keywords that check the same value as the schema holding them, by a list, a map or one subschema. */
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_MAPS = ['dependentSchemas'] as const;
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;
/** Keywords whose subschemas check a part of the value (or nothing, for `$defs`). */
const NESTED_LISTS = ['prefixItems'] as const;
const NESTED_MAPS = ['properties', 'patternProperties', '$defs'] as const;
const NESTED_ONE = ['items', 'additionalProperties', 'propertyNames', 'contains'] as const;

/** A step from one schema to another that checks the same value; `via` is the keyword's JSON Pointer. */
interface Step {
  readonly to: Record<string, unknown>;
  readonly via: string;
}

/**
 * Lists the loops of `$ref`s in `root` that never step into a property or an item: `A` is
 * `$ref: B` and `B` is `$ref: A` (directly, or through `allOf`, `anyOf`, `oneOf`, `not`,
 * `if` / `then` / `else` or `dependentSchemas`, which check the same value). Checking a value
 * against such a loop never ends, so no value has a defined outcome. A loop that passes
 * through `properties`, `items` or another keyword for a part of the value is a recursive
 * schema and is not listed: each step checks a smaller value.
 */
export function refLoopIssues(root: unknown): SchemaProfileIssue[] {
  const pointers = new Map<Record<string, unknown>, string>();
  collect(root, '', pointers);
  const issues: SchemaProfileIssue[] = [];
  const done = new Set<object>();
  // The schemas on the current path, each with the step taken out of it.
  const path: { node: object; via: string }[] = [];
  const onPath = new Map<object, number>();
  const visit = (node: Record<string, unknown>): void => {
    onPath.set(node, path.length);
    const entry = { node, via: '' };
    path.push(entry);
    for (const step of stepsOf(node, pointers.get(node) ?? '', root)) {
      entry.via = step.via;
      const at = onPath.get(step.to);
      if (at !== undefined) issues.push(loopIssue(path.slice(at), pointers));
      else if (!done.has(step.to)) visit(step.to);
    }
    path.pop();
    onPath.delete(node);
    done.add(node);
  };
  for (const node of pointers.keys()) if (!done.has(node)) visit(node);
  return issues;
}

function loopIssue(loop: readonly { node: object; via: string }[], pointers: ReadonlyMap<object, string>): SchemaProfileIssue {
  const names = [...loop, loop[0]].map(({ node }) => `#${pointers.get(node) ?? ''}`);
  return {
    pointer: loop[0].via,
    what: `starts a loop of $refs that never steps into a property or an item (${names.join(' -> ')}), so checking a value against it never ends`,
    fix: 'give one of them a schema of its own (for example `type: "string"`), or let the recursion pass through `properties` or `items` so that each step checks a smaller part of the value.',
  };
}

/** Records the JSON Pointer of every schema object under `node` (the first one, if an object appears twice). */
function collect(node: unknown, pointer: string, pointers: Map<Record<string, unknown>, string>): void {
  if (!isObject(node) || pointers.has(node)) return;
  pointers.set(node, pointer);
  for (const [child, at] of children(node, pointer, [...IN_PLACE_LISTS, ...NESTED_LISTS], [...IN_PLACE_MAPS, ...NESTED_MAPS], [...IN_PLACE_ONE, ...NESTED_ONE])) collect(child, at, pointers);
}

/** The schemas that check the same value as `node`: its `$ref`'s target and its in-place subschemas. */
function stepsOf(node: Record<string, unknown>, pointer: string, root: unknown): Step[] {
  const steps: Step[] = [];
  if (typeof node.$ref === 'string') {
    const target = resolvePointer(root, node.$ref);
    if (isObject(target)) steps.push({ to: target, via: `${pointer}/$ref` });
  }
  for (const [child, at] of children(node, pointer, IN_PLACE_LISTS, IN_PLACE_MAPS, IN_PLACE_ONE)) if (isObject(child)) steps.push({ to: child, via: at });
  return steps;
}

/** The subschemas of `node` under the given keywords, each with its JSON Pointer. */
function children(node: Record<string, unknown>, pointer: string, lists: readonly string[], maps: readonly string[], ones: readonly string[]): [unknown, string][] {
  const out: [unknown, string][] = [];
  for (const key of lists) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((sub, i) => out.push([sub, `${pointer}/${key}/${i}`]));
  }
  for (const key of maps) {
    const map = node[key];
    if (!isObject(map)) continue;
    for (const name in map) if (Object.hasOwn(map, name)) out.push([map[name], `${pointer}/${key}/${escapePointer(name)}`]);
  }
  for (const key of ones) if (Object.hasOwn(node, key)) out.push([node[key], `${pointer}/${key}`]);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
