import type { Middleware } from '../pipeline/Middleware';
import { recordPipeline } from './recordPipeline';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Wraps every call of the class's members (on a class) or of one member (on a method) with
 * middleware. Order, outermost first: the app's `middleware`, the class's (a parent class's
 * before its subclass's), the method's; within one decorator, left to right.
 *
 * @example
 * ＠UseMiddleware(auditLog, RateLimit)
 * ＠Tool({ description: 'Delete a note.' })
 * deleteNote(＠Param('id') id: string) { ... }
 */
export function UseMiddleware(...middleware: Middleware[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    refuseStandardDecorator('@UseMiddleware()', propertyKey);
    recordPipeline(target, propertyKey, { kind: 'middleware', items: Object.freeze([...middleware]) });
  }) as ClassDecorator & MethodDecorator;
}
