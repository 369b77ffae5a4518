import type { Class } from '../metadata/Class';
import { inputName, isExcludedFromInput, outputChange } from './class-transformer';
import { readDtoProperties } from './class-validator';
import type { DtoWalk } from './DtoWalk';
import { defineSchema } from './defineSchema';
import { className } from './isDtoClass';
import type { JsonSchema } from './JsonSchema';
import { propertySchema } from './propertySchema';
import { reportClassProblems } from './reportClassProblems';
import { propertyWhere, reportProblem } from './reportProblem';

/** The inlined object schema of `cls`: `{ type: 'object', properties, required?, additionalProperties: false }`. */
export function classSchema(cls: Class, walk: DtoWalk): JsonSchema {
  const { ctx } = walk;
  const props = readDtoProperties(cls);
  if (props.length === 0) {
    reportProblem(
      ctx,
      `${ctx.where} -> ${className(cls)}`,
      'is used as a DTO but has no class-validator decorators, so its schema cannot be derived and class-validator rejects every value of it',
      'add class-validator decorators such as @IsString() to each property',
    );
    return { type: 'object', additionalProperties: false };
  }
  // A recursive class is expanded again for its `$defs` entry while the outer expansion runs: only the outer one ends it.
  const outer = !ctx.expanding.has(cls);
  if (outer) ctx.expanding.add(cls);
  try {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const prop of props) {
      if (!walk.input) {
        // A result goes out as JSON.stringify writes the returned object, under its own property names.
        if (!outputChangeProblem(cls, prop.name, walk)) continue;
      } else if (isExcludedFromInput(cls, prop.name)) continue; // plainToInstance drops it: not an input
      const key = walk.input ? inputName(cls, prop.name) : prop.name;
      if (key === '__proto__') {
        reportProblem(
          ctx,
          propertyWhere(ctx, cls, prop.name),
          "takes the input key '__proto__', which JSON parsers and the MCP SDK drop, so no value could ever arrive",
          'rename the property (or its @Expose name).',
        );
        continue;
      }
      const derived = propertySchema(cls, prop, walk);
      properties[key] = derived.schema;
      if (derived.required) required.push(key);
    }
    reportClassProblems(cls, props, walk);
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  } finally {
    if (outer) ctx.expanding.delete(cls);
  }
}

/**
 * Whether an output class's property is sent as declared; reports it (and returns false) when an
 * `@Exclude` (its own or its class's) or an `@Expose` rename would change it, which nothing applies
 * to a result: the property would go out all the same (an excluded secret) or under its own name
 * (every call refused).
 */
function outputChangeProblem(cls: Class, property: string, walk: DtoWalk): boolean {
  const change = outputChange(cls, property);
  if (!change) return true;
  reportProblem(
    walk.ctx,
    propertyWhere(walk.ctx, cls, property),
    `is ${change.excluded ? 'left out' : 'renamed'} by ${change.decorator} in an output class, but a result is sent as JSON.stringify writes the returned object: class-transformer does not run on it, so the property would go out ${change.excluded ? 'all the same' : 'under its own name'}`,
    change.excluded
      ? 'leave the property out of the output class (and out of the object the tool returns).'
      : 'name the property as the client should see it, or remove @Expose from the output class.',
  );
  return false;
}

/** Inline schema for a plain nested class, `$ref` for a recursive one. */
export function classRef(cls: Class, walk: DtoWalk): JsonSchema {
  // `expanding` is a safety net: a cycle the up-front scan missed must not loop forever.
  if (isDefined(cls, walk)) return { $ref: `#/$defs/${defineClass(cls, walk)}` };
  return classSchema(cls, walk);
}

/** The object schema of `cls` itself, never a `$ref`: a recursive class's is a copy of its `$defs` entry. */
export function inlineClass(cls: Class, walk: DtoWalk): JsonSchema {
  return isDefined(cls, walk) ? { ...walk.ctx.defs[defineClass(cls, walk)] } : classSchema(cls, walk);
}

/** Whether `cls` goes to `$defs`: it is on a reference cycle, or being expanded now. */
function isDefined(cls: Class, walk: DtoWalk): boolean {
  return walk.recursion.classes.has(cls) || walk.ctx.expanding.has(cls);
}

/** Puts `cls` into the root's `$defs` once, under its own name, and returns that name. */
function defineClass(cls: Class, walk: DtoWalk): string {
  return defineSchema(walk.ctx, walk.ctx.defNames, cls, cls.name || 'Anonymous', () => classSchema(cls, walk));
}
