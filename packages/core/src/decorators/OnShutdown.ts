import { recordHook } from './recordHook';

/**
 * Runs the method when the app stops, after running calls have drained (close a pool,
 * flush a buffer). Awaited in reverse order of the start hooks; a method that throws is
 * logged and the others still run.
 */
export function OnShutdown(): MethodDecorator {
  return (target, propertyKey) => recordHook(target, propertyKey, 'shutdown');
}
