/** The MCP Apps extension's identifier (SEP-1865). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML view. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The flat `_meta` key some hosts read instead of the nested `_meta.ui.resourceUri`. */
export const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

/** The origins a view may reach, as the host's Content Security Policy for its iframe allows them. */
export interface UiCsp {
  /** Origins for fetch, XHR and WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Origins of scripts, styles, images and fonts (`script-src`, `img-src`, ...). */
  resourceDomains?: string[];
  /** Origins of nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Origins allowed as the document's base URI (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser capabilities a view asks the host for (each present key is a request). */
export interface UiPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** What `@UiResource` says about an MCP App view (its `_meta.ui`, plus the resource's own fields). */
export interface UiResourceOptions {
  /** The programmatic name in `resources/list`. Default: the method name in snake_case. */
  name?: string;
  title?: string;
  description?: string;
  /** The origins the view may load from and connect to. Default: none (the host's strictest policy). */
  csp?: UiCsp;
  /** Camera, microphone, geolocation, clipboard write. */
  permissions?: UiPermissions;
  /** A dedicated origin for the view, where the host supports one (e.g. for OAuth callbacks or API keys). */
  domain?: string;
  /** Whether the host should draw a border around the view. */
  prefersBorder?: boolean;
}

/** `@UiResource` on a class: the view's HTML is a file, read once when the app is built. */
export interface UiFileOptions extends UiResourceOptions {
  /**
   * The HTML file: an absolute path, a `file:` URL (`new URL('./view.html', import.meta.url)`),
   * or a path relative to the directory of the module that declares the class. The file is
   * read once by `createApp` (UTF-8, at most 5 MiB) and served from memory; a missing or
   * unreadable file fails the build with a `BuildError` naming the path.
   */
  file: string | URL;
}

/** Who may see and call a tool linked to a view: the model, the view (app), or both (the default). */
export type UiVisibility = 'model' | 'app';

/** `@Tool({ ui })`: the view a tool's results are shown in. */
export interface ToolUiOptions {
  /** The `ui://` URI of a `@UiResource` the app serves. */
  resource: string;
  /**
   * `['model', 'app']` (the default): the model calls it and the view shows the result.
   * `['app']`: only the view calls it (a refresh button); hosts keep it from the model, and
   * Toolwright lists it only to clients that declared the MCP Apps extension. Either way a
   * call is access-checked like any other tool's.
   */
  visibility?: UiVisibility[];
}
