import { recordAccess } from './recordAccess';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Open to every caller, including anonymous ones: the tool ignores its class's
 * `@RequireScopes`/`@RequireRoles`. Use it for the few tools a protected class still offers to all.
 */
export function Public(): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    refuseStandardDecorator('@Public()', propertyKey);
    recordAccess(target, propertyKey, { kind: 'public', values: [] });
  }) as ClassDecorator & MethodDecorator;
}
