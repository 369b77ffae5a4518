import { recordHook } from './recordHook';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Runs the method when the app stops, after running calls have drained (close a pool,
 * flush a buffer). Awaited in reverse order of the start hooks; a method that throws is
 * logged and the others still run.
 */
export function OnShutdown(): MethodDecorator {
  return (target, propertyKey) => {
    refuseStandardDecorator('@OnShutdown()', propertyKey);
    recordHook(target, propertyKey, 'shutdown');
  };
}
