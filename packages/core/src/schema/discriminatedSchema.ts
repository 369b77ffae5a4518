import type { Discriminator } from './class-transformer';
import { inlineClass } from './classSchema';
import type { DtoWalk } from './DtoWalk';
import { className, isDtoClass } from './isDtoClass';
import type { JsonSchema } from './JsonSchema';
import { mergeSchemas } from './mergeSchemas';
import { reportProblem } from './reportProblem';

/**
 * `oneOf` the subclasses, each with its discriminator property pinned by `const`: the value
 * `plainToInstance` reads to pick the class. The branches exclude each other, so exactly
 * one matches a valid value, and its message names the fields of that subclass.
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
    const base = inlineClass(value, walk);
    const declared = base.properties?.[d.property];
    if (d.keep && !declared) {
      reportProblem(
        walk.ctx,
        at,
        `keeps the discriminator '${d.property}' on ${className(value)} (keepDiscriminatorProperty), but ${className(value)} does not declare it, so class-validator rejects every value`,
        `declare it on ${className(value)} or its base class with a validator such as @IsIn(['${name}']), or drop keepDiscriminatorProperty`,
      );
    }
    const tag: JsonSchema = { const: name };
    const required = base.required?.includes(d.property) ? base.required : [...(base.required ?? []), d.property];
    return { ...base, properties: { ...base.properties, [d.property]: declared ? mergeSchemas(declared, tag) : tag }, required };
  });
  return { oneOf: variants };
}
