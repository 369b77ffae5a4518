import { recordAccess } from './recordAccess';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * The caller's token must carry every one of these OAuth scopes. On a class, it applies to
 * each of its tools (a method's own scopes add to it). A caller without them does not see
 * the tool in `tools/list`, and calling it is answered as a call of a tool that does not exist
 * (over HTTP with `createApp({ scopeHints: true })`: 403 `insufficient_scope` naming the scopes).
 *
 * @example
 * ＠RequireScopes('notes:write')
 * ＠Tool({ description: 'Delete a note.' })
 * deleteNote(＠Param('id') id: string) { ... }
 */
export function RequireScopes(...scopes: string[]): ClassDecorator & MethodDecorator {
  return ((target: object, propertyKey?: string | symbol) => {
    refuseStandardDecorator('@RequireScopes()', propertyKey);
    recordAccess(target, propertyKey, { kind: 'scopes', values: Object.freeze([...scopes]) });
  }) as ClassDecorator & MethodDecorator;
}
