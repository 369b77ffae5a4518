import type { Schema } from './Contract';
import type { Change, Severity } from './Change';

/**
 * `input`: the client sends values the schema must keep accepting, so accepting less is
 * breaking. `output`: the client reads values, so sending anything it did not expect (a new
 * type or enum value, a missing field) is breaking.
 */
export type Direction = 'input' | 'output';

interface Side {
  readonly schema: Schema;
  /** The top-level schema, for `#/$defs/...` references. */
  readonly root: Schema;
}

/** The changes between two versions of one schema, classified for the direction data flows. */
export function diffSchemas(before: Schema, after: Schema, where: string, direction: Direction): Change[] {
  const changes: Change[] = [];
  walk({ schema: before, root: before }, { schema: after, root: after }, { label: where, path: '' }, direction, changes, 0);
  return changes;
}

const MAX_DEPTH = 32;

/** Where in the contract: the label (`tool 'x' input`) and the path inside the schema (`filters.tags[]`). */
interface Place {
  readonly label: string;
  readonly path: string;
}

const describe = (place: Place): string => (place.path ? `${place.label} ${place.path}` : place.label);
const childOf = (place: Place, name: string): Place => ({ label: place.label, path: place.path ? `${place.path}.${name}` : name });

function walk(a: Side, b: Side, place: Place, direction: Direction, changes: Change[], depth: number): void {
  if (depth > MAX_DEPTH) return; // a recursive $ref: the first levels are what clients see
  const before = deref(a);
  const after = deref(b);
  // Accepting less is breaking for input; sending more (or less reliably) is breaking for output.
  const narrowed: Severity = direction === 'input' ? 'breaking' : 'additive';
  const widened: Severity = direction === 'input' ? 'additive' : 'breaking';
  const where = describe(place);
  const add = (severity: Severity, message: string) => changes.push({ severity, where, message });

  compareTypes(before.schema, after.schema, narrowed, widened, add);
  compareEnums(before.schema, after.schema, narrowed, widened, add);
  compareBounds(before.schema, after.schema, narrowed, widened, add);
  for (const keyword of ['pattern', 'format', 'const'] as const) {
    const x = JSON.stringify(before.schema[keyword]);
    const y = JSON.stringify(after.schema[keyword]);
    if (x === y) continue;
    if (x === undefined) add(narrowed, `${keyword} ${y} added`);
    else if (y === undefined) add(widened, `${keyword} ${x} removed`);
    else add('breaking', `${keyword} changed from ${x} to ${y}`);
  }
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (JSON.stringify(before.schema[keyword]) !== JSON.stringify(after.schema[keyword])) {
      add('breaking', `${keyword} changed; toolwright does not classify ${keyword} changes, so review it as breaking`);
    }
  }
  if (before.schema.description !== after.schema.description && (before.schema.description !== undefined || after.schema.description !== undefined)) {
    add('info', 'description changed');
  }
  if (JSON.stringify(before.schema.default) !== JSON.stringify(after.schema.default)) {
    add('info', `default changed from ${JSON.stringify(before.schema.default)} to ${JSON.stringify(after.schema.default)}`);
  }
  compareObjects(before, after, place, direction, changes, depth, narrowed, widened, add);
  if (before.schema.items && after.schema.items) {
    walk({ schema: before.schema.items, root: before.root }, { schema: after.schema.items, root: after.root }, { label: place.label, path: `${place.path}[]` }, direction, changes, depth + 1);
  }
}

function compareObjects(
  before: Side,
  after: Side,
  place: Place,
  direction: Direction,
  changes: Change[],
  depth: number,
  narrowed: Severity,
  widened: Severity,
  add: (severity: Severity, message: string) => void,
): void {
  const propsBefore = before.schema.properties ?? {};
  const propsAfter = after.schema.properties ?? {};
  const requiredBefore = new Set(before.schema.required ?? []);
  const requiredAfter = new Set(after.schema.required ?? []);
  const closedAfter = after.schema.additionalProperties === false;
  const child = (name: string) => describe(childOf(place, name));

  for (const name of Object.keys(propsBefore)) {
    if (name in propsAfter) continue;
    if (direction === 'input') {
      if (closedAfter) changes.push({ severity: 'breaking', where: child(name), message: 'parameter removed: clients that still send it are rejected' });
      else changes.push({ severity: 'info', where: child(name), message: 'parameter removed (extra properties are still accepted)' });
    } else {
      changes.push(
        requiredBefore.has(name)
          ? { severity: 'breaking', where: child(name), message: 'field removed from the result: clients that read it break' }
          : { severity: 'info', where: child(name), message: 'optional field removed from the result' },
      );
    }
  }
  for (const name of Object.keys(propsAfter)) {
    if (name in propsBefore) continue;
    if (direction === 'input') {
      changes.push(
        requiredAfter.has(name)
          ? { severity: 'breaking', where: child(name), message: 'new required parameter: existing calls lack it' }
          : { severity: 'additive', where: child(name), message: 'new optional parameter' },
      );
    } else changes.push({ severity: 'additive', where: child(name), message: 'new field in the result' });
  }
  for (const name of Object.keys(propsBefore)) {
    if (!(name in propsAfter)) continue;
    const was = requiredBefore.has(name);
    const is = requiredAfter.has(name);
    if (was && !is) changes.push({ severity: widened, where: child(name), message: direction === 'input' ? 'now optional' : 'no longer always present' });
    if (!was && is) changes.push({ severity: narrowed, where: child(name), message: direction === 'input' ? 'now required: calls without it are rejected' : 'now always present' });
    walk({ schema: propsBefore[name], root: before.root }, { schema: propsAfter[name], root: after.root }, childOf(place, name), direction, changes, depth + 1);
  }
  const openBefore = before.schema.additionalProperties !== false;
  const openAfter = after.schema.additionalProperties !== false;
  if (before.schema.properties || after.schema.properties) {
    if (openBefore && !openAfter) add(narrowed, 'no longer accepts extra properties (additionalProperties: false)');
    if (!openBefore && openAfter) add(widened, 'now allows extra properties');
  }
}

function compareTypes(before: Schema, after: Schema, narrowed: Severity, widened: Severity, add: (s: Severity, m: string) => void): void {
  const x = typeSet(before);
  const y = typeSet(after);
  if (x === undefined || y === undefined) {
    if (x !== y) add(x === undefined ? narrowed : widened, x === undefined ? `type restricted to ${[...y!].join(' | ')}` : 'type restriction removed');
    return;
  }
  const lost = [...x].filter((t) => !accepts(y, t));
  const gained = [...y].filter((t) => !accepts(x, t));
  const show = (s: Set<string>) => [...s].join(' | ');
  // Lost and gained types at once break both readers and writers.
  if (lost.length > 0 && gained.length > 0) add('breaking', `type changed from ${show(x)} to ${show(y)}`);
  else if (lost.length > 0) add(narrowed, `type narrowed from ${show(x)} to ${show(y)}`);
  else if (gained.length > 0) add(widened, `type widened from ${show(x)} to ${show(y)}`);
}

function compareEnums(before: Schema, after: Schema, narrowed: Severity, widened: Severity, add: (s: Severity, m: string) => void): void {
  const x = before.enum?.map((v) => JSON.stringify(v));
  const y = after.enum?.map((v) => JSON.stringify(v));
  if (!x && !y) return;
  if (!x) return add(narrowed, `now limited to ${y!.join(', ')}`);
  if (!y) return add(widened, 'enum removed: any value of the type is accepted');
  const removed = x.filter((v) => !y.includes(v));
  const added = y.filter((v) => !x.includes(v));
  if (removed.length > 0) add(narrowed, `enum value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`);
  if (added.length > 0) add(widened, `enum value${added.length > 1 ? 's' : ''} ${added.join(', ')} added`);
}

/** Lower bounds that rise, or upper bounds that fall, narrow what is valid. */
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;

function compareBounds(before: Schema, after: Schema, narrowed: Severity, widened: Severity, add: (s: Severity, m: string) => void): void {
  for (const [keywords, tighter] of [
    [LOWER, (x: number, y: number) => y > x],
    [UPPER, (x: number, y: number) => y < x],
  ] as const) {
    for (const keyword of keywords) {
      const x = before[keyword] as number | undefined;
      const y = after[keyword] as number | undefined;
      if (x === y) continue;
      if (x === undefined) add(narrowed, `${keyword} ${y} added`);
      else if (y === undefined) add(widened, `${keyword} ${x} removed`);
      else add(tighter(x, y) ? narrowed : widened, `${keyword} changed from ${x} to ${y}`);
    }
  }
  if (before.uniqueItems !== true && after.uniqueItems === true) add(narrowed, 'items must now be unique');
  if (before.uniqueItems === true && after.uniqueItems !== true) add(widened, 'items no longer need to be unique');
}

function typeSet(schema: Schema): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/** Whether a schema of these types accepts every value of type `t` ("number" accepts integers). */
function accepts(types: Set<string>, t: string): boolean {
  return types.has(t) || (t === 'integer' && types.has('number'));
}

/** Follows local `$ref`s (`#/$defs/Name`, `#/definitions/Name`) within the same top-level schema. */
function deref(side: Side): Side {
  let schema = side.schema;
  for (let hops = 0; typeof schema.$ref === 'string' && hops < 8; hops++) {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const target = match ? (side.root[match[1]] as Record<string, Schema> | undefined)?.[match[2]] : undefined;
    if (!target) break;
    schema = target;
  }
  return { schema, root: side.root };
}
