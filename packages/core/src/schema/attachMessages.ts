import type { Class } from '../metadata/Class';
import type { DtoConstraint } from './class-validator';
import { compileCustomMessage, setCustomMessages, type CustomMessage } from './customMessages';
import type { DtoWalk } from './DtoWalk';
import { className } from './isDtoClass';
import type { JsonSchema } from './JsonSchema';
import { singleType } from './mergeSchemas';

/**
 * A constraint's own `message` replaces Toolwright's for the keywords it produced (for its
 * `type` only when that is all it produced, as with @IsString), so the model reads what the
 * app wrote whether the schema or class-validator rejects the value.
 */
export function attachMessages(schema: JsonSchema, constraints: readonly DtoConstraint[], cls: Class, property: string, walk: DtoWalk): void {
  const messages: Record<string, CustomMessage> = {};
  for (const constraint of constraints) {
    if (constraint.message === undefined) continue;
    const keywords = Object.keys(walk.converters[constraint.kind]?.(constraint, { type: singleType(schema.type) }) ?? {});
    const own = keywords.length > 1 ? keywords.filter((k) => k !== 'type') : keywords;
    const message = compileCustomMessage(constraint.message, property, className(cls), constraint.args);
    for (const keyword of own) messages[keyword] ??= message;
  }
  if (Object.keys(messages).length > 0) setCustomMessages(schema, messages);
}
