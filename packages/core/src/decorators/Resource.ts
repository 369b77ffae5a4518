import { RESOURCES_KEY } from '../metadata/keys';
import { appendOwn } from '../metadata/ownMetadata';
import type { ResourceArgs, ResourceOptions } from '../metadata/ResourceOptions';
import { refuseStandardDecorator } from './refuseStandardDecorator';
import { frozenOptions } from './frozenOptions';

/**
 * Marks a method as an MCP resource. A plain URI makes a static resource (listed in
 * `resources/list`); a URI with RFC 6570 `{expressions}` makes a resource template
 * whose variables are bound to the method's `@Param`s, typed and validated.
 *
 * @example
 * ＠Resource('config://app', { mimeType: 'application/json' })
 * config() { return { debug: false }; }
 *
 * ＠Resource('users://{id}/profile', { description: 'A user profile' })
 * profile(＠Param('id', { integer: true }) id: number) { ... }
 */
export function Resource(uri: string, options: ResourceOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    refuseStandardDecorator('@Resource()', propertyKey);
    const isStatic = typeof target === 'function';
    const owner = isStatic ? target : target.constructor;
    const args: ResourceArgs = { methodName: String(propertyKey), uri, options: frozenOptions(options), isStatic };
    appendOwn(RESOURCES_KEY, owner, Object.freeze(args));
  };
}
