import { MCP_APP_MIME_TYPE, type UiFileOptions, type UiResourceOptions } from '../apps/McpApps';
import { callerFile } from '../apps/callerFile';
import { uiOptionsProblems } from '../apps/uiOptionsProblems';
import { ConfigError } from '../errors/ConfigError';
import { RESOURCES_KEY } from '../metadata/keys';
import { appendOwn } from '../metadata/ownMetadata';
import type { ResourceArgs, ResourceOptions } from '../metadata/ResourceOptions';
import { Resource } from './Resource';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/**
 * Declares an MCP App view (SEP-1865), served as the `ui://` resource with MIME type
 * `text/html;profile=mcp-app` and `_meta.ui` carrying the view's CSP domains, permissions,
 * domain and border preference (in `resources/list` and on the content `resources/read`
 * returns). Link tools to it with `@Tool({ ui: { resource: 'ui://...' } })`, and serve the app
 * with `extensions: [apps()]`.
 *
 * On a class, with `file`: the view is an HTML file, read once when the app is built. On a
 * method: the method returns the HTML (a string), on every read.
 *
 * @example
 * ＠UiResource('ui://dashboard', { file: '../views/dashboard.html', title: 'Dashboard', prefersBorder: true })
 * class DashboardTools { ... }
 *
 * class ReportTools {
 *   ＠UiResource('ui://report', { csp: { connectDomains: ['https://api.example.com'] } })
 *   report() { return renderReport(); }
 * }
 */
/** A view whose HTML is a file (`options.file`), declared on the class that links tools to it. */
export function UiResource(uri: string, options: UiFileOptions): ClassDecorator;
/** A view whose HTML the decorated method returns. */
export function UiResource(uri: string, options?: UiResourceOptions): MethodDecorator;
export function UiResource(uri: string, options: UiResourceOptions | UiFileOptions = {}): ClassDecorator & MethodDecorator {
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length <= 'ui://'.length || uri.includes('{')) {
    throw new ConfigError(`@UiResource(${JSON.stringify(uri)}): a view's URI is a fixed ui:// URI, e.g. @UiResource('ui://dashboard').`);
  }
  const problems = uiOptionsProblems(options);
  if (problems.length > 0) throw new ConfigError(`@UiResource('${uri}') is not valid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  const { name, title, description, csp, permissions, domain, prefersBorder } = options;
  const ui = {
    ...(csp && { csp: structuredClone(csp) }),
    ...(permissions && { permissions: structuredClone(permissions) }),
    ...(domain !== undefined && { domain }),
    ...(prefersBorder !== undefined && { prefersBorder }),
  };
  const resource: ResourceOptions = { name, title, description, mimeType: MCP_APP_MIME_TYPE, _meta: { ui } };
  const file = 'file' in options ? viewFilePath(uri, options.file) : undefined;
  // Only a relative path needs the declaring module, and only then is the call stack read.
  const declaredIn = file !== undefined && !isAbsoluteOrUrl(file) ? callerFile(UiResource) : undefined;
  const onMethod = Resource(uri, resource);
  return ((target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (propertyKey !== undefined) {
      refuseStandardDecorator('@UiResource()', propertyKey);
      if (file !== undefined) {
        throw new ConfigError(
          `@UiResource('${uri}') on ${String(propertyKey)}(): a method returns the view's HTML itself, so it takes no \`file\`. Put @UiResource('${uri}', { file }) on the class instead, or drop \`file\`.`,
        );
      }
      onMethod(target, propertyKey, descriptor!);
      return;
    }
    if (typeof target !== 'function' || file === undefined) {
      throw new ConfigError(`@UiResource('${uri}') on a class needs the view's HTML file: @UiResource('${uri}', { file: '../views/view.html' }).`);
    }
    const args: ResourceArgs = { methodName: `@UiResource('${uri}')`, uri, options: Object.freeze(resource), isStatic: false, file: Object.freeze({ path: file, ...(declaredIn && { declaredIn }) }) };
    appendOwn(RESOURCES_KEY, target, Object.freeze(args));
  }) as ClassDecorator & MethodDecorator;
}

function viewFilePath(uri: string, file: unknown): string {
  if (file instanceof URL) return file.href;
  if (typeof file === 'string' && file.length > 0) return file;
  throw new ConfigError(`@UiResource('${uri}'): \`file\` is a path or a file: URL, e.g. { file: '../views/view.html' } (got ${JSON.stringify(file)}).`);
}

/** `/abs`, `C:\abs`, `\\server\share` or `file:...`: read as given. */
export function isAbsoluteOrUrl(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('file:');
}
