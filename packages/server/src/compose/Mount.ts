import type { App } from '../app/App';

/**
 * Another app served inside this one (`AppOptions.mount`): its tools and prompts under
 * `namespace` (`billing` + `create_invoice` -> `billing_create_invoice`), its resources and
 * resource templates under their own URIs. See the Composition guide.
 */
export interface Mount {
  /** An app made with `createApp`. It keeps serving on its own too, if it listens. */
  readonly app: App;
  /** The prefix of its tool and prompt names: letters, digits, `_`, `.` and `-` (joined to the name with `_`). */
  readonly namespace: string;
}
