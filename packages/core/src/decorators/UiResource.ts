import { MCP_APP_MIME_TYPE, type UiResourceOptions } from '../apps/McpApps';
import { ConfigError } from '../errors/ConfigError';
import { Resource } from './Resource';

/**
 * Declares an MCP App view (SEP-1865): the method returns the HTML (a string, built or read
 * from a file), served as the `ui://` resource with MIME type `text/html;profile=mcp-app` and
 * `_meta.ui` carrying the view's CSP domains, permissions, domain and border preference (in
 * `resources/list` and on the content `resources/read` returns). Link tools to it with
 * `@Tool({ ui: { resource: 'ui://...' } })`, and serve the app with `extensions: [apps()]`.
 *
 * @example
 * ＠UiResource('ui://dashboard', { title: 'Dashboard', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true })
 * dashboard() { return readFileSync(join(__dirname, 'views/dashboard.html'), 'utf8'); }
 */
export function UiResource(uri: string, options: UiResourceOptions = {}): MethodDecorator {
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length <= 'ui://'.length || uri.includes('{')) {
    throw new ConfigError(`@UiResource(${JSON.stringify(uri)}): a view's URI is a fixed ui:// URI, e.g. @UiResource('ui://dashboard').`);
  }
  const { name, title, description, csp, permissions, domain, prefersBorder } = options;
  const ui = {
    ...(csp && { csp: structuredClone(csp) }),
    ...(permissions && { permissions: structuredClone(permissions) }),
    ...(domain !== undefined && { domain }),
    ...(prefersBorder !== undefined && { prefersBorder }),
  };
  return Resource(uri, { name, title, description, mimeType: MCP_APP_MIME_TYPE, _meta: { ui } });
}
