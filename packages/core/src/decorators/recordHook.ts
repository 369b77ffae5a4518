import { HOOKS_KEY, type HookArgs } from '../metadata/HookArgs';
import { appendOwn } from '../metadata/ownMetadata';
import { ConfigError } from '../errors/ConfigError';

/** Records a lifecycle hook method on its class. */
export function recordHook(target: object, propertyKey: string | symbol, when: HookArgs['when']): void {
  if (typeof target === 'function') throw new ConfigError(`@On${when === 'start' ? 'Start' : 'Shutdown'}() on static ${String(propertyKey)}: put it on an instance method.`);
  appendOwn(HOOKS_KEY, target.constructor, Object.freeze({ when, methodName: String(propertyKey) }));
}
