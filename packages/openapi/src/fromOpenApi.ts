import { ConfigError, Ctx, Param, Resource, ResourceNotFoundError, Tool, ToolError, TransformTools, type Class, type ToolContext } from '@toolwright/core';
import { ClientCredentialsToken } from './clientCredentials';
import { callOperation, type CallSettings } from './callOperation';
import { collectOperations } from './collectOperations';
import { LinearPatterns } from './LinearPatterns';
import { readDescription } from './readDescription';
import type { FromOpenApiOptions } from './FromOpenApiOptions';
import type { OpenApiOperation, SkippedOperation } from './OpenApiOperation';

/** A tool class made from an OpenAPI description: serve it with `createApp({ tools: [it] })`. */
export type OpenApiTools = Class & {
  /** The operations served, one tool each. */
  readonly operations: readonly OpenApiOperation[];
  /** The operations of the description left out, each with the reason (filtered ones are not listed). */
  readonly skipped: readonly SkippedOperation[];
};

/**
 * Turns an OpenAPI 3.0 or 3.1 description into a tool class: one tool per operation, its input
 * schema made of the path, query and header parameters (by name) and the JSON request body
 * (`body`). `$ref`s are resolved by `@apidevtools/json-schema-ref-parser`: external ones only
 * in the description file's folder or on its URL's origin, unless `allowExternalRef` says
 * otherwise; recursive schemas become `$defs`. Calls go to
 * `options.baseUrl` with the server's own credentials; HTTP errors, timeouts and oversized
 * responses are `isError` results. The description's `pattern`s run on a linear-time engine
 * (RE2), so no argument can stall the server; see `allowBacktrackingPattern`.
 *
 * @param document - the description as an object, or a file path or URL to read it from.
 */
export async function fromOpenApi(document: string | object, options: FromOpenApiOptions): Promise<OpenApiTools> {
  const bundled = await readDescription(document, options.allowExternalRef);
  const version = bundled.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    throw new ConfigError(
      `Toolwright: fromOpenApi() reads OpenAPI 3.0 and 3.1 descriptions, and this one says openapi: ${JSON.stringify(version ?? bundled.swagger ?? null)}. Convert it to OpenAPI 3.x first.`,
    );
  }
  if (options.allowBacktrackingPattern !== undefined && typeof options.allowBacktrackingPattern !== 'function') {
    throw new ConfigError(`Toolwright: fromOpenApi()'s allowBacktrackingPattern is ${typeof options.allowBacktrackingPattern}. Give a function (pattern, where) => boolean.`);
  }
  const patterns = new LinearPatterns(options.allowBacktrackingPattern);
  const settings = settingsOf(bundled, options, patterns);
  const { operations, skipped } = collectOperations(bundled, options, patterns);

  const OpenApiToolSet = class OpenApiTools {};
  operations.forEach((op, i) => {
    const methodName = `operation${i}`;
    if (op.servedAs === 'resource') return serveAsResource(OpenApiToolSet, methodName, op, settings);
    Object.defineProperty(OpenApiToolSet.prototype, methodName, {
      value: (input: Record<string, unknown>, ctx: ToolContext | undefined) => callOperation(op, input, ctx, settings),
      writable: true,
      configurable: true,
    });
    const decorate = Tool({
      name: op.toolName,
      title: op.title,
      description: op.description,
      inputSchema: op.inputSchema,
      ...(op.outputSchema && { outputSchema: op.outputSchema }),
      annotations: op.annotations,
      compilePattern: patterns.compile,
    });
    decorate(OpenApiToolSet.prototype, methodName, Object.getOwnPropertyDescriptor(OpenApiToolSet.prototype, methodName)!);
  });
  // Recorded as on any local class; the build applies them (and reports a name that matches no tool).
  if (options.transforms !== undefined) TransformTools(options.transforms)(OpenApiToolSet);
  return Object.assign(OpenApiToolSet, { operations: Object.freeze(operations), skipped: Object.freeze(skipped) });
}

function settingsOf(document: Record<string, unknown>, options: FromOpenApiOptions, patterns: LinearPatterns): CallSettings {
  let base = options.baseUrl;
  if (base === undefined && options.useDocumentServers === true) {
    const first = Array.isArray(document.servers) ? (document.servers[0] as { url?: unknown } | undefined) : undefined;
    base = typeof first?.url === 'string' ? first.url : undefined;
  }
  if (base === undefined) {
    throw new ConfigError("Toolwright: fromOpenApi() needs the API's base URL. Pass `baseUrl: 'https://api.example.com'` (or `useDocumentServers: true` to trust the description's `servers`).");
  }
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ConfigError(`Toolwright: fromOpenApi()'s base URL ${JSON.stringify(base)} is not an absolute URL. Give one such as 'https://api.example.com/v1'.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`Toolwright: fromOpenApi()'s base URL must be http: or https:, not ${url.protocol}.`);
  if (url.search || url.hash) throw new ConfigError("Toolwright: fromOpenApi()'s base URL has a query or fragment. Give the origin and path only; put fixed query values in `auth` or the operations.");
  for (const [key, limit] of [
    ['timeoutMs', options.timeoutMs],
    ['maxResponseBytes', options.maxResponseBytes],
    ['errorBodyChars', options.errorBodyChars],
  ] as const) {
    if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0)) throw new ConfigError(`Toolwright: fromOpenApi()'s ${key} is ${String(limit)}. Give a positive integer.`);
  }
  const auth = options.auth;
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 1024 * 1024,
    errorBodyChars: options.errorBodyChars ?? 2000,
    headers: Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    compilePattern: patterns.compile,
    ...(auth && {
      auth:
        auth.type === 'oauth2'
          ? { in: 'oauth2' as const, token: new ClientCredentialsToken(auth, options.fetch ?? globalThis.fetch, options.timeoutMs ?? 30_000) }
          : auth.type === 'bearer'
            ? { in: 'header' as const, name: 'authorization', value: auth.token, prefix: 'Bearer ' }
            : { in: auth.in, name: auth.name, value: auth.value, prefix: '' },
    }),
  };
}

/** RFC 6570 variable names: a path parameter named otherwise cannot be a template variable. */
const VARIABLE = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

/**
 * Serves a GET as a resource read at the API's own URL (`<baseUrl>/pets`), or as a template
 * when its path has parameters (`<baseUrl>/pets/{petId}`): a read sends the request; a 404 is
 * "resource not found", another failure an error with the status and body excerpt.
 */
function serveAsResource(target: Class, methodName: string, op: OpenApiOperation, settings: CallSettings): void {
  const pathParams = op.arguments.filter((a) => a.in === 'path').map((a) => a.name);
  const requiredOther = (op.inputSchema.required ?? []).filter((r) => !pathParams.includes(r));
  const where = `${op.method.toUpperCase()} ${op.path}`;
  if (requiredOther.length > 0) {
    throw new ConfigError(`Toolwright: routes map ${where} to a resource, but it requires ${requiredOther.join(', ')}, which a resource URI cannot carry. Map it to a tool.`);
  }
  const bad = pathParams.find((p) => !VARIABLE.test(p));
  if (bad !== undefined) throw new ConfigError(`Toolwright: routes map ${where} to a resource, but its path parameter '${bad}' cannot be a URI template variable. Map it to a tool.`);
  const uri = `${settings.baseUrl}${op.path}`;
  Object.defineProperty(target.prototype, methodName, {
    value: async (...args: unknown[]) => {
      const ctx = args[pathParams.length] as ToolContext | undefined;
      const input = Object.fromEntries(pathParams.map((p, i) => [p, args[i]]));
      const result = await callOperation(op, input, ctx, settings);
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      if (result.isError) {
        const read = pathParams.reduce((u, p) => u.split(`{${p}}`).join(encodeURIComponent(String(input[p]))), uri);
        throw /HTTP 404\b/.test(text) ? new ResourceNotFoundError(read, text) : new ToolError(text);
      }
      return text;
    },
    writable: true,
    configurable: true,
  });
  pathParams.forEach((name, i) => Param(name, { type: () => String })(target.prototype, methodName, i));
  Ctx()(target.prototype, methodName, pathParams.length);
  Resource(uri, { name: op.toolName, ...(op.title !== undefined && { title: op.title }), ...(op.description !== undefined && { description: op.description }), mimeType: 'application/json' })(
    target.prototype,
    methodName,
    Object.getOwnPropertyDescriptor(target.prototype, methodName)!,
  );
}
