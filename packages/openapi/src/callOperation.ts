import type { ToolContext, ToolResult } from '@toolwright/core';
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
  readonly auth?: { readonly in: 'header' | 'query'; readonly name: string; readonly value: OpenApiSecret; readonly prefix: string };
}

const failure = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Sends one operation's request with the validated arguments and turns the response into a tool result. Never throws. */
export async function callOperation(op: OpenApiOperation, input: Record<string, unknown>, ctx: ToolContext | undefined, settings: CallSettings): Promise<ToolResult> {
  const where = `${op.method.toUpperCase()} ${op.path}`;
  let path = op.path;
  const query = new URLSearchParams();
  const sent: [string, string][] = [];
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
    } else {
      sent.push([arg.name, arg.json ? JSON.stringify(value) : Array.isArray(value) ? value.map(scalar).join(',') : scalar(value)]);
    }
  }
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = ctx?.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  try {
    const headers = new Headers(sent);
    headers.set('accept', 'application/json');
    for (const [name, value] of Object.entries(settings.headers)) headers.set(name, value);
    if (settings.auth) {
      let secret: string;
      try {
        secret = settings.auth.prefix + (await secretOf(settings.auth.value));
      } catch {
        return failure(`${where} was not sent: the server could not get its credential for the API. This is the server's configuration (its \`auth\` option), not your arguments.`);
      }
      if (settings.auth.in === 'header') headers.set(settings.auth.name, secret);
      else query.set(settings.auth.name, secret);
    }
    let body: string | undefined;
    if (op.hasBody && input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers.set('content-type', 'application/json');
    }
    const search = query.toString();
    const url = `${settings.baseUrl}${path}${search ? `?${search}` : ''}`;
    const response = await settings.fetch(url, { method: op.method.toUpperCase(), headers, body, signal, redirect: 'manual' });
    const read = await readLimited(response, settings.maxResponseBytes);
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
    return { content: [{ type: 'text', text: read }], ...(structured && { structuredContent: structured }) };
  } catch (error) {
    if (timeout.aborted) return failure(`${where} did not answer within ${settings.timeoutMs} ms. Try again later, or raise timeoutMs.`);
    if (ctx?.signal?.aborted) return failure(`${where} was cancelled.`);
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : (error as Error).message;
    return failure(`${where} could not be sent: ${detail}. Check that the API is reachable.`);
  }
}

function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

async function secretOf(secret: OpenApiSecret): Promise<string> {
  return typeof secret === 'function' ? await secret() : secret;
}

/** The body as text, or undefined when it is longer than `limit` bytes (then the rest is not read). */
async function readLimited(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body.cancel();
    return undefined;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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
