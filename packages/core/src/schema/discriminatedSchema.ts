import type { Class } from '../metadata/Class';
import type { Discriminator } from './class-transformer';
import { classSchema, inlineClass } from './classSchema';
import { defineSchema } from './defineSchema';
import type { DtoWalk } from './DtoWalk';
import { className, isDtoClass } from './isDtoClass';
import type { JsonSchema } from './JsonSchema';
import { mergeSchemas } from './mergeSchemas';
import { reportProblem } from './reportProblem';

/**
 * `oneOf` the subclasses, each with its discriminator property pinned by `const`: the value
 * `plainToInstance` reads to pick the class. The branches exclude each other, so exactly
 * one matches a valid value, and its message names the fields of that subclass.
 *
 * A branch is inlined (a recursive class's is a copy of its `$defs` entry), except one that
 * holds the same branch again (a class of the union's own subclasses, or a class on a cycle
 * through the union): that branch goes to the root's `$defs`, under the class's name and the
 * tag (`TreeNode.node`), and is referenced with `$ref`, so the union inside it refers back to it.
 */
export function discriminatedSchema(d: Discriminator, walk: DtoWalk, at: string): JsonSchema | undefined {
  if (d.subTypes.length === 0) {
    reportProblem(walk.ctx, at, `has a @Type discriminator on '${d.property}' with no subTypes`, "list the subclasses: discriminator: { property: 'kind', subTypes: [{ name: 'a', value: A }] }");
    return undefined;
  }
  const variants = d.subTypes.map(({ name, value }): JsonSchema => {
    if (!isDtoClass(value)) {
      reportProblem(walk.ctx, at, `has a @Type discriminator subtype '${name}' that is not a class`, 'give each subtype `value` a class-validator DTO class');
      return {};
    }
    // `expanding` is a safety net: a class being expanded has only a placeholder in `$defs` to copy.
    if (!walk.recursion.isRecursiveBranch(value, d.property, name) && !walk.ctx.expanding.has(value)) {
      return taggedClass(inlineClass(value, walk), value, name, d, walk, at);
    }
    const { variantNames } = walk.ctx;
    let byTag = variantNames.get(value);
    if (!byTag) variantNames.set(value, (byTag = new Map()));
    const defName = defineSchema(walk.ctx, byTag, JSON.stringify([d.property, name]), `${value.name || 'Anonymous'}.${name}`, () => taggedClass(classSchema(value, walk), value, name, d, walk, at));
    return { $ref: `#/$defs/${defName}` };
  });
  return { oneOf: variants };
}

/** `base`, the object schema of `cls`, with the discriminator property pinned to `name` and required. */
function taggedClass(base: JsonSchema, cls: Class, name: string, d: Discriminator, walk: DtoWalk, at: string): JsonSchema {
  const declared = base.properties?.[d.property];
  if (d.keep && !declared) {
    reportProblem(
      walk.ctx,
      at,
      `keeps the discriminator '${d.property}' on ${className(cls)} (keepDiscriminatorProperty), but ${className(cls)} does not declare it, so class-validator rejects every value`,
      `declare it on ${className(cls)} or its base class with a validator such as @IsIn(['${name}']), or drop keepDiscriminatorProperty`,
    );
  }
  const tag: JsonSchema = { const: name };
  const required = base.required?.includes(d.property) ? base.required : [...(base.required ?? []), d.property];
  return { ...base, properties: { ...base.properties, [d.property]: declared ? mergeSchemas(declared, tag) : tag }, required };
}
