import { UI_EXTENSION } from '@toolwright/core';
import { defineExtension } from '../defineExtension';
import type { Extension } from '../Extension';

/**
 * MCP Apps (SEP-1865, `io.modelcontextprotocol/ui`): advertises the extension in
 * `capabilities.extensions` (both eras), so hosts that render views know to read the app's
 * `@UiResource` views and the `@Tool({ ui })` links. The views and links themselves are
 * declared with decorators and built with the app; this extension adds no method.
 *
 * @example
 * const app = await createApp({ name: 'dashboard', version: '1.0.0', tools: [DashboardTools], extensions: [apps()] });
 */
export function apps(): Extension {
  return defineExtension({ id: UI_EXTENSION, settings: {} });
}
