import { recordHook } from './recordHook';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Runs the method when the app starts serving, before the first request (open a pool,
 * warm a cache). The instance comes from the app's container. Awaited in order; a method
 * that throws stops startup with its message (the server exits with code 1).
 */
export function OnStart(): MethodDecorator {
  return (target, propertyKey) => {
    refuseStandardDecorator('@OnStart()', propertyKey);
    recordHook(target, propertyKey, 'start');
  };
}
