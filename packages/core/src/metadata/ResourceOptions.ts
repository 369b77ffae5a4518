import type { ContentAnnotations } from '../content/ToolResult';
import type { CacheHint } from './CacheHint';
import type { Icon } from './ToolOptions';

export interface ResourceOptions {
  /**
   * The programmatic name shown in `resources/list` (required on the wire).
   * Default: the method name in snake_case.
   */
  name?: string;
  /** A short human-readable name for UIs. */
  title?: string;
  description?: string;
  /** The MIME type of the contents, used for every content that does not set its own. */
  mimeType?: string;
  /** The size in bytes, if known before reading (static resources only). */
  size?: number;
  /** Who the resource is for, how important it is and when it last changed. */
  annotations?: ContentAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** How long 2026-07-28 clients may reuse what a read returns (`resources/read`). Default: the app's `cache.reads`. */
  cache?: CacheHint;
}

/** What `@Resource` records on the class. */
export interface ResourceArgs {
  readonly methodName: string;
  /** A URI, or an RFC 6570 URI template when it contains `{expressions}`. */
  readonly uri: string;
  readonly options: Readonly<ResourceOptions>;
  readonly isStatic: boolean;
  /** A view served from an HTML file (`@UiResource` on a class): no method is called to read it. */
  readonly file?: ViewFile;
}

/** Where a file-backed view's HTML is: the file as given, and the module that declared it (for relative paths). */
export interface ViewFile {
  /** An absolute path, a `file:` URL, or a path relative to `declaredIn`'s directory. */
  readonly path: string;
  /** The module whose class declared the view (a path or a `file:` URL), when the runtime says (V8 call sites). */
  readonly declaredIn?: string;
}
