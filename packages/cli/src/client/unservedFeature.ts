import { DEFAULT_REQUEST_TIMEOUT_MSEC, ProtocolError, SdkError, SdkErrorCode, type Client, type RequestOptions } from '@modelcontextprotocol/client';
import { count } from '../cli/count';

/** The server features `toolwright call` uses: one per kind of request it sends. */
export type Feature = 'tools' | 'resources' | 'prompts';

/** How many names of each feature the message lists before it says how many more there are. */
const SHOWN = 8;
/** How many characters of a failed listing's error the message quotes. */
const REASON_LENGTH = 120;

/**
 * Undefined when the server declared `feature` in its capabilities. Otherwise, sentences that say
 * it serves none and what it serves instead, by name (from the first page of each list). A client
 * sends no request for a feature the server did not declare: the server would answer only
 * "Method not found".
 *
 * The lists are asked for at once, and each may fail on its own (a server that declares
 * `resources` but answers no `resources/templates/list`, a list that times out): the feature is
 * then named with the reason it could not be listed, and the sentences are given all the same.
 */
export async function unservedFeature(client: Client, feature: Feature, options: RequestOptions): Promise<string | undefined> {
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities[feature] !== undefined) return undefined;
  // What it does serve, in the order of the help: tools, resources, prompts (the feature asked for left out).
  const others = (['tools', 'resources', 'prompts'] as const).filter((other) => other !== feature);
  const served = await Promise.all(
    others.map((other) => (capabilities[other] === undefined ? `no ${other}` : LISTED[other](client, options).catch((error: unknown) => `${other} (could not be listed: ${reason(error, options)})`))),
  );
  const { name, version } = client.getServerVersion() ?? { name: 'unknown', version: '' };
  return `The server ${name}${version ? ` ${version}` : ''} serves no ${feature} (its capabilities declare none). It serves ${served.join('; ')}.`;
}

/** The first page of each list, named; a rejection when the list cannot be had. */
const LISTED: Record<Feature, (client: Client, options: RequestOptions) => Promise<string>> = {
  tools: async (client, options) => {
    const page = await client.listTools(undefined, options);
    return named('tool', page.tools, page.nextCursor !== undefined);
  },
  // Resources and their templates are one feature, counted together: the resources listed are
  // still named when only the templates cannot be (resources/templates/list is often missing).
  resources: async (client, options) => {
    const templates = client.listResourceTemplates(undefined, options).then(
      (page) => page,
      (error: unknown) => reason(error, options),
    );
    const resources = await client.listResources(undefined, options);
    const uris = resources.resources.map((r) => ({ name: r.uri }));
    const more = resources.nextCursor !== undefined;
    const listed = await templates;
    if (typeof listed === 'string') return `${named('resource', uris, more)} (its resource templates could not be listed: ${listed})`;
    return named('resource', [...uris, ...listed.resourceTemplates.map((t) => ({ name: t.uriTemplate }))], more || listed.nextCursor !== undefined);
  },
  prompts: async (client, options) => {
    const page = await client.listPrompts(undefined, options);
    return named('prompt', page.prompts, page.nextCursor !== undefined);
  },
};

/** `2 tools: a, b`; `more` when the list has further pages, whose items are not counted. */
export function named(noun: string, items: readonly { name: string }[], more: boolean): string {
  if (items.length === 0 && !more) return `no ${noun}s`;
  const names = items.slice(0, SHOWN).map((item) => item.name);
  const hidden = items.length - names.length;
  const rest = more ? ', and more' : hidden > 0 ? `, and ${hidden} more` : '';
  return `${more ? 'at least ' : ''}${count(items.length, noun)}: ${names.join(', ')}${rest}`;
}

/** Why a list could not be had, in one short line: the server's error and its code, or the wait that ran out. */
function reason(error: unknown, options: RequestOptions): string {
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return `no answer within ${options.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC} ms`;
  const message = String(error instanceof Error ? error.message : error).split('\n', 1)[0] || 'the server gave no reason';
  const short = message.length > REASON_LENGTH ? `${message.slice(0, REASON_LENGTH)}…` : message;
  return error instanceof ProtocolError ? `${short}, JSON-RPC error ${error.code}` : short;
}
