import type { ToolTransforms } from '@toolwright/core';
import type { App } from '../app/App';
import type { ProxiedServer } from './proxy/ProxiedServer';

/**
 * Another app served inside this one (`AppOptions.mount`): its tools and prompts under
 * `namespace` (`billing` + `create_invoice` -> `billing_create_invoice`), its resources and
 * resource templates under their own URIs. See the Composition guide.
 */
export interface Mount {
  /** An app made with `createApp` (it keeps serving on its own too, if it listens), or an upstream server from `proxyServer()` (`@toolwright/server/proxy`). */
  readonly app: App | ProxiedServer;
  /** The prefix of its tool and prompt names: letters, digits, `_`, `.` and `-` (joined to the name with `_`). */
  readonly namespace: string;
  /**
   * Changes to its tools by their own name (before the namespace): rename, new description,
   * hidden arguments with a constant or computed value, narrowed argument schemas. A renamed
   * tool still gets the namespace: `{ create_invoice: { name: 'new_invoice' } }` serves `billing_new_invoice`.
   */
  readonly transforms?: ToolTransforms;
}
