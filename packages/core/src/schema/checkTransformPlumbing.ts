import type { Class } from '../metadata/Class';
import type { DtoProperty } from './class-validator';
import type { DtoWalk } from './DtoWalk';
import { className, isDtoClass } from './isDtoClass';
import { reportProblem } from './reportProblem';

/**
 * Nested classes and dates reach class-validator only if class-transformer builds them:
 * that takes @Type(() => X) (or implicit conversion), and the nested class's own
 * decorators run only under @ValidateNested().
 */
export function checkTransformPlumbing(prop: DtoProperty, valueRef: unknown, shape: { isArray: boolean; hasHint: boolean }, at: string, walk: DtoWalk): void {
  const kinds = new Set(prop.constraints.map((c) => c.kind));
  const nestedClass = isDtoClass(valueRef) ? valueRef : undefined;
  if (nestedClass && !kinds.has('nestedValidation')) {
    const name = className(nestedClass);
    reportProblem(
      walk.ctx,
      at,
      `holds ${name}${shape.isArray ? '[]' : ''}, but has no @ValidateNested(), so the decorators of ${name} never run`,
      `add @ValidateNested(${shape.isArray ? '{ each: true }' : ''})`,
    );
  }
  const needsInstance = (nestedClass !== undefined && kinds.has('nestedValidation')) || (valueRef === Date && kinds.has('isDate'));
  if (needsInstance && !shape.hasHint && !walk.coerce) {
    const target = className(valueRef as Class);
    reportProblem(
      walk.ctx,
      at,
      `expects an instance of ${target} but has no @Type(() => ${target}), so class-transformer leaves the JSON value as it is and validation always fails`,
      `add @Type(() => ${target}) from class-transformer`,
    );
  }
}
