import { compileSchemaValidator, type PatternCompiler, type ToolContext, type ToolResult, type ValidationOutcome } from '@toolwright/core';
import type { ClientCredentialsToken } from './clientCredentials';
import { readCappedText } from '@toolwright/core/internal';
import type { OpenApiSecret } from './FromOpenApiOptions';
import type { OpenApiOperation } from './OpenApiOperation';
import { joined, pct, scalar, serializePath, serializeQuery } from './serializeParameter';

/** What every call of one source shares: where requests go and the server's limits and credentials. */
export interface CallSettings {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly errorBodyChars: number;
  readonly headers: Readonly<Record<string, string>>;
  /** How the description's patterns run (RE2; `LinearPatterns`), for the response checks too. */
  readonly compilePattern: PatternCompiler;
  readonly auth?:
    { readonly in: 'header' | 'query'; readonly name: string; readonly value: OpenApiSecret; readonly prefix: string } | { readonly in: 'oauth2'; readonly token: ClientCredentialsToken };
}

/** Each operation's output validator, compiled on its first call. */
const outputValidators = new WeakMap<object, (value: unknown) => ValidationOutcome>();

const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Sends one operation's request with the validated arguments and turns the response into a tool result. Never throws. */
export async function callOperation(op: OpenApiOperation, input: Record<string, unknown>, ctx: ToolContext | undefined, settings: CallSettings): Promise<ToolResult> {
  const where = `${op.method.toUpperCase()} ${op.path}`;
  let path = op.path;
  const query: [string, string][] = [];
  const sent: [string, string][] = [];
  const cookies: string[] = [];
  for (const arg of op.arguments) {
    if (!Object.hasOwn(input, arg.name)) continue;
    const value = input[arg.name];
    if (value === undefined) continue;
    // encodeURIComponent throws on these, and a header cannot carry them.
    if (hasLoneSurrogate(value)) return failure(`Invalid arguments: '${arg.name}' holds a lone UTF-16 surrogate, which is not text a request can carry. Give well-formed text.`);
    if (arg.in === 'path') {
      const text = serializePath(arg, arg.json ? JSON.stringify(value) : value);
      // '.' and '..' would climb the URL's path whatever their encoding (the URL parser decodes %2E); '' would change the endpoint.
      if (text === '' || /^(?:\.|%2e){1,2}$/i.test(text)) {
        return failure(`Invalid arguments: '${arg.name}' is ${JSON.stringify(text)}, which cannot be a path segment of ${where}. Give a non-empty value other than '.' and '..'.`);
      }
      path = path.split(`{${arg.name}}`).join(text);
    } else if (arg.in === 'query') {
      for (const pair of serializeQuery(arg, arg.json ? JSON.stringify(value) : value)) query.push(pair);
    } else if (arg.in === 'cookie') {
      cookies.push(`${arg.name}=${pct(joined(arg.json ? JSON.stringify(value) : value, false, (t) => t))}`);
    } else {
      sent.push([arg.name, joined(arg.json ? JSON.stringify(value) : value, arg.explode, (t) => t)]);
    }
  }
  // Values side by side (`/{a}{b}`) can make one too; the template itself has none (checked at startup).
  if (path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) {
    return failure(`Invalid arguments: the path arguments of ${where} make a '.' or '..' path segment, which the URL would resolve as a step up. Give other values.`);
  }
  const credentialKey = settings.auth?.in === 'query' ? settings.auth.name : undefined;
  if (credentialKey !== undefined && query.some(([key]) => key === pct(credentialKey))) {
    return failure(`Invalid arguments: an argument of ${where} would set the query parameter '${credentialKey}', which carries the server's credential. Leave it out.`);
  }
  for (const [name, value] of sent) {
    // Headers would throw on these; a line break would split the request. The model's mistake, said as one.
    if (/[\r\n\0]/.test(value)) return failure(`Invalid arguments: '${name}' holds a line break or NUL, which an HTTP header of ${where} cannot carry. Give it on one line.`);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    if (/[\u0001-\u0008\u000B-\u001F\u007F]/.test(value)) return failure(`Invalid arguments: '${name}' holds a control character, which an HTTP header of ${where} cannot carry. Give printable text.`);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    if (/[^\u0000-\u00FF]/.test(value)) {
      return failure(`Invalid arguments: '${name}' holds characters outside Latin-1, which an HTTP header of ${where} cannot carry. Give ASCII text (or encoded as the API documents).`);
    }
  }
  if (cookies.length > 0) sent.push(['cookie', cookies.join('; ')]);
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = ctx?.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  try {
    const headers = new Headers(sent);
    headers.set('accept', 'application/json');
    for (const [name, value] of Object.entries(settings.headers)) headers.set(name, value);
    const auth = settings.auth;
    let oauthToken: string | undefined;
    if (auth) {
      try {
        if (auth.in === 'oauth2') headers.set('authorization', `Bearer ${(oauthToken = await auth.token.get())}`);
        else if (auth.in === 'header') headers.set(auth.name, auth.prefix + (await secretOf(auth.value)));
        else query.push([pct(auth.name), pct(auth.prefix + (await secretOf(auth.value)))]);
      } catch {
        return failure(`${where} was not sent: the server could not get its credential for the API. This is the server's configuration (its \`auth\` option), not your arguments.`);
      }
    }
    const body = op.hasBody && input.body !== undefined ? encodeBody(op, input.body, headers) : undefined;
    const search = query.map(([k, v]) => `${k}=${v}`).join('&');
    const url = `${settings.baseUrl}${path}${search ? `?${search}` : ''}`;
    if (!staysUnder(url, settings.baseUrl)) return failure(`${where} was not sent: its URL would leave the API's base URL. Check the path arguments.`);
    const init = { method: op.method.toUpperCase(), headers, body, signal, redirect: 'manual' } as const;
    let response = await settings.fetch(url, init);
    if (response.status === 401 && auth?.in === 'oauth2' && oauthToken !== undefined) {
      // The API refused the kept token (revoked, or expired early): one new token, one retry.
      await response.body?.cancel();
      auth.token.invalidate(oauthToken);
      try {
        headers.set('authorization', `Bearer ${await auth.token.get()}`);
      } catch {
        return failure(`${where} was not sent: the server could not get its credential for the API. This is the server's configuration (its \`auth\` option), not your arguments.`);
      }
      response = await settings.fetch(url, { ...init, body: op.hasBody && input.body !== undefined ? encodeBody(op, input.body, headers) : undefined });
    }
    const read = await readCappedText(response, settings.maxResponseBytes);
    if (read === undefined) {
      return failure(
        `${where} answered with more than ${settings.maxResponseBytes} bytes (HTTP ${response.status}); the response was cut off. Ask for less (a filter, a page size), or raise maxResponseBytes.`,
      );
    }
    if (response.status < 200 || response.status >= 300) {
      const excerpt = read.length > settings.errorBodyChars ? `${read.slice(0, settings.errorBodyChars)}… (${read.length - settings.errorBodyChars} more characters)` : read;
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      return failure(
        `${where} failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${location ? ` (redirect to ${location}, not followed)` : ''}${excerpt ? `\n${excerpt}` : ''}`,
      );
    }
    const structured = jsonObject(read, response.headers.get('content-type'));
    if (op.outputSchema) {
      if (!structured) return failure(`${where} answered HTTP ${response.status} with ${response.headers.get('content-type') ?? 'no content type'}, not the JSON object its description promises.`);
      let validate = outputValidators.get(op);
      if (!validate) outputValidators.set(op, (validate = compileSchemaValidator(op.outputSchema, { compilePattern: settings.compilePattern })));
      const outcome = validate(structured);
      if (!outcome.ok) {
        const lines = outcome.issues.slice(0, 5).map((i) => `- ${i.path || '(response)'}: ${i.message}`);
        return failure(
          `${where} answered with JSON that does not match its described response:\n${lines.join('\n')}\nThe API strays from its description; the server can turn output schemas off (outputSchemas: false).`,
        );
      }
    }
    return { content: [{ type: 'text', text: read }], ...(structured && { structuredContent: structured }) };
  } catch (error) {
    if (timeout.aborted) return failure(`${where} did not answer within ${settings.timeoutMs} ms. Try again later, or raise timeoutMs.`);
    if (ctx?.signal?.aborted) return failure(`${where} was cancelled.`);
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : (error as Error).message;
    return failure(`${where} could not be sent: ${detail}. Check that the API is reachable.`);
  }
}

/** The request body in the operation's encoding; sets its content type (multipart's comes with its boundary from fetch). */
function encodeBody(op: OpenApiOperation, value: unknown, headers: Headers): string | URLSearchParams | FormData {
  if (op.bodyEncoding === 'json') {
    headers.set('content-type', 'application/json');
    return JSON.stringify(value);
  }
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (op.bodyEncoding === 'form') {
    const form = new URLSearchParams();
    for (const [name, v] of Object.entries(fields)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) form.append(name, scalar(item));
      else form.append(name, scalar(v));
    }
    headers.set('content-type', 'application/x-www-form-urlencoded');
    return form;
  }
  const form = new FormData();
  for (const [name, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    if (op.binaryFields.includes(name) && typeof v === 'string') form.append(name, new Blob([Buffer.from(v, 'base64')]), name);
    else if (Array.isArray(v)) for (const item of v) form.append(name, scalar(item));
    else form.append(name, scalar(v));
  }
  headers.delete('content-type');
  return form;
}

async function secretOf(secret: OpenApiSecret): Promise<string> {
  return typeof secret === 'function' ? await secret() : secret;
}

/** Whether `url` has the base URL's origin and stays under its path (no `..` step out of it). */
function staysUnder(url: string, baseUrl: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return target.origin === base.origin && (target.pathname === prefix || target.pathname.startsWith(`${prefix}/`));
}

/** Whether a string anywhere in `value` (keys included) holds an unpaired UTF-16 surrogate. */
function hasLoneSurrogate(value: unknown): boolean {
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (lone.test(v)) return true;
    } else if (Array.isArray(v)) {
      // One by one: spreading a long array (a query parameter of 500,000 items) would overflow the call stack.
      for (const item of v as unknown[]) stack.push(item);
    } else if (typeof v === 'object' && v !== null) for (const k of Object.keys(v)) stack.push(k, (v as Record<string, unknown>)[k]);
  }
  return false;
}

function jsonObject(text: string, contentType: string | null): Record<string, unknown> | undefined {
  if (!contentType || !/^application\/([^;]*\+)?json\b/i.test(contentType)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
