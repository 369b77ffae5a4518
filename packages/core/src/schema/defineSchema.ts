import type { JsonSchema } from './JsonSchema';
import type { SchemaContext } from './SchemaContext';

/**
 * Puts the schema `build` derives under the root's `$defs`, once per `key` of `names`, and
 * returns its name there: `base`, suffixed 2, 3, ... when that name is taken (two classes of
 * one name from different modules). The name is registered before `build` runs, so the
 * schema's references to itself, however deep, become `$ref`s to it.
 */
export function defineSchema<K>(ctx: SchemaContext, names: Map<K, string>, key: K, base: string, build: () => JsonSchema): string {
  const existing = names.get(key);
  if (existing !== undefined) return existing;
  const name = freeDefName(base.replace(/[^A-Za-z0-9_.-]/g, '_'), ctx);
  names.set(key, name);
  ctx.defs[name] = {}; // holds the name while `build` runs; nothing copies it
  ctx.defs[name] = build();
  return name;
}

function freeDefName(base: string, ctx: SchemaContext): string {
  let name = base === '__proto__' ? '_proto_' : base; // a class may be named so; assigning that key would set `defs`' prototype
  for (let i = 2; Object.hasOwn(ctx.defs, name); i++) name = `${base}${i}`;
  return name;
}
