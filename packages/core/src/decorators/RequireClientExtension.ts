import { clientExtension } from '../context/clientExtension';
import { ConfigError } from '../errors/ConfigError';
import type { MemberAccess } from '../pipeline/MemberCall';
import { recordPipeline } from './recordPipeline';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Serves the class's members (on a class) or one member (on a method) only to clients that
 * declared extension `id` in `capabilities.extensions` (per session in the 2025 era, per
 * request in 2026-07-28). Other clients do not see the member in its list, and a call is
 * answered as a call of one that does not exist. It records a guard, so it composes with
 * `@UseGuards` and the access rules.
 *
 * @example
 * ＠RequireClientExtension('io.modelcontextprotocol/ui')
 * ＠Tool({ description: 'Refresh the dashboard view.', ui: { resource: 'ui://dashboard', visibility: ['app'] } })
 * refresh() { ... }
 */
export function RequireClientExtension(id: string): ClassDecorator & MethodDecorator {
  if (typeof id !== 'string' || id.length === 0) throw new ConfigError("@RequireClientExtension(id) needs the extension's identifier, e.g. 'io.modelcontextprotocol/ui'.");
  const guard = (access: MemberAccess): boolean => clientExtension(access.envelope, id) !== undefined;
  Object.defineProperty(guard, 'name', { value: `clientExtension(${id})` });
  return ((target: object, propertyKey?: string | symbol) => {
    refuseStandardDecorator('@RequireClientExtension()', propertyKey);
    recordPipeline(target, propertyKey, { kind: 'guards', items: Object.freeze([guard]) });
  }) as ClassDecorator & MethodDecorator;
}
