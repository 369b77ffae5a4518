import type { Guard } from '../pipeline/Guard';
import { recordPipeline } from './recordPipeline';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Lets a caller see and use the class's members (on a class) or one member (on a method)
 * only when every guard says yes. A refused member is left out of the lists and its calls
 * are refused, on every transport, like `@RequireScopes`. Class guards run before the method's.
 *
 * @example
 * ＠UseGuards((access) => access.authInfo?.extra?.tenant === 'acme')
 * ＠Tool({ description: 'Export the tenant data.' })
 * exportData() { ... }
 */
export function UseGuards(...guards: Guard[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    refuseStandardDecorator('@UseGuards()', propertyKey);
    recordPipeline(target, propertyKey, { kind: 'guards', items: Object.freeze([...guards]) });
  }) as ClassDecorator & MethodDecorator;
}
