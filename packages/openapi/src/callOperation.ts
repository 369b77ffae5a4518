import { compileSchemaValidator, type ToolContext, type ToolResult, type ValidationOutcome } from '@toolwright/core';
import type { ClientCredentialsToken } from './clientCredentials';
import { readCappedText } from '@toolwright/core/internal';
import type { OpenApiSecret } from './FromOpenApiOptions';
import type { OpenApiOperation } from './OpenApiOperation';

/** What every call of one source shares: where requests go and the server's limits and credentials. */
export interface CallSettings {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly errorBodyChars: number;
  readonly headers: Readonly<Record<string, string>>;
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
  const query = new URLSearchParams();
  const sent: [string, string][] = [];
  const cookies: string[] = [];
  for (const arg of op.arguments) {
    if (!Object.hasOwn(input, arg.name)) continue;
    const value = input[arg.name];
    if (value === undefined) continue;
    if (arg.in === 'path') {
      const text = arg.json ? JSON.stringify(value) : String(value);
      // '.' and '..' would climb the URL's path whatever their encoding (the URL parser decodes %2E).
      if (text === '' || text === '.' || text === '..') {
        return failure(`Invalid arguments: '${arg.name}' is ${JSON.stringify(text)}, which cannot be a path segment of ${where}. Give a non-empty value other than '.' and '..'.`);
      }
      path = path.split(`{${arg.name}}`).join(encodeURIComponent(text));
    } else if (arg.in === 'query') {
      if (Array.isArray(value) && !arg.json) for (const v of value) query.append(arg.name, scalar(v));
      else query.append(arg.name, arg.json ? JSON.stringify(value) : scalar(value));
    } else if (arg.in === 'cookie') {
      cookies.push(`${arg.name}=${encodeURIComponent(arg.json ? JSON.stringify(value) : Array.isArray(value) ? value.map(scalar).join(',') : scalar(value))}`);
    } else {
      sent.push([arg.name, arg.json ? JSON.stringify(value) : Array.isArray(value) ? value.map(scalar).join(',') : scalar(value)]);
    }
  }
  for (const [name, value] of sent) {
    // Headers would throw on these; a line break would split the request. The model's mistake, said as one.
    if (/[\r\n\0]/.test(value)) return failure(`Invalid arguments: '${name}' holds a line break or NUL, which an HTTP header of ${where} cannot carry. Give it on one line.`);
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
        else query.set(auth.name, auth.prefix + (await secretOf(auth.value)));
      } catch {
        return failure(`${where} was not sent: the server could not get its credential for the API. This is the server's configuration (its \`auth\` option), not your arguments.`);
      }
    }
    const body = op.hasBody && input.body !== undefined ? encodeBody(op, input.body, headers) : undefined;
    const search = query.toString();
    const url = `${settings.baseUrl}${path}${search ? `?${search}` : ''}`;
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
      if (!validate) outputValidators.set(op, (validate = compileSchemaValidator(op.outputSchema)));
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

function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

async function secretOf(secret: OpenApiSecret): Promise<string> {
  return typeof secret === 'function' ? await secret() : secret;
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
