import type { Class } from '../metadata/Class';
import { recordParam } from './Param';

/**
 * Binds a method parameter to the whole argument object, built as an instance of a
 * class-validator DTO class (by class-transformer) and validated before the call.
 * The class is taken from the parameter's type; pass `() => Dto` when it is declared later.
 */
export function Args(dto?: () => Class): ParameterDecorator {
  return (target, propertyKey, index) => {
    recordParam(target, propertyKey, { index, kind: 'args', dto });
  };
}
