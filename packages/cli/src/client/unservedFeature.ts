import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { count } from '../cli/count';

/** The server features `toolwright call` uses: one per kind of request it sends. */
export type Feature = 'tools' | 'resources' | 'prompts';

/** How many names of each feature the message lists before it says how many more there are. */
const SHOWN = 8;

/**
 * Undefined when the server declared `feature` in its capabilities. Otherwise, sentences that say
 * it serves none and what it serves instead, by name (from the first page of each list). A client
 * sends no request for a feature the server did not declare: the server would answer only
 * "Method not found".
 */
export async function unservedFeature(client: Client, feature: Feature, options: RequestOptions): Promise<string | undefined> {
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities[feature] !== undefined) return undefined;
  // What it does serve, in the order of the help: tools, resources, prompts (the feature asked for left out).
  const served: string[] = [];
  if (feature !== 'tools') {
    if (capabilities.tools === undefined) served.push('no tools');
    else {
      const page = await client.listTools(undefined, options);
      served.push(named('tool', page.tools, page.nextCursor !== undefined));
    }
  }
  if (feature !== 'resources') {
    if (capabilities.resources === undefined) served.push('no resources');
    else {
      const resources = await client.listResources(undefined, options);
      const templates = await client.listResourceTemplates(undefined, options);
      const names = [...resources.resources.map((r) => ({ name: r.uri })), ...templates.resourceTemplates.map((t) => ({ name: t.uriTemplate }))];
      served.push(named('resource', names, resources.nextCursor !== undefined || templates.nextCursor !== undefined));
    }
  }
  if (feature !== 'prompts') {
    if (capabilities.prompts === undefined) served.push('no prompts');
    else {
      const page = await client.listPrompts(undefined, options);
      served.push(named('prompt', page.prompts, page.nextCursor !== undefined));
    }
  }
  const { name, version } = client.getServerVersion() ?? { name: 'unknown', version: '' };
  return `The server ${name}${version ? ` ${version}` : ''} serves no ${feature} (its capabilities declare none). It serves ${served.join('; ')}.`;
}

/** `2 tools: a, b`; `more` when the list has further pages, whose items are not counted. */
function named(noun: string, items: readonly { name: string }[], more: boolean): string {
  if (items.length === 0 && !more) return `no ${noun}s`;
  const names = items.slice(0, SHOWN).map((item) => item.name);
  const hidden = items.length - names.length;
  const rest = more ? ', and more' : hidden > 0 ? `, and ${hidden} more` : '';
  return `${more ? 'at least ' : ''}${count(items.length, noun)}: ${names.join(', ')}${rest}`;
}
