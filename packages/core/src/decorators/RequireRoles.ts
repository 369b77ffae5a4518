import { recordAccess } from './recordAccess';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * The caller must have at least one of these roles (read from `authInfo.extra.roles`).
 * On a class, it applies to each of its tools unless a method names its own roles.
 * A caller without them does not see the tool, and calling it is refused.
 *
 * @example
 * ＠RequireRoles('admin', 'operator')
 * export class AdminTools { ... }
 */
export function RequireRoles(...roles: string[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    refuseStandardDecorator('@RequireRoles()', propertyKey);
    recordAccess(target, propertyKey, { kind: 'roles', values: Object.freeze([...roles]) });
  }) as ClassDecorator & MethodDecorator;
}
