import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import type { Contract, PromptEntry, ResourceEntry, ResourceTemplateEntry, ToolEntry } from './Contract';

/** Lists everything the server offers (every page), keeping the fields that make the contract. */
export async function readContract(client: Client, options: RequestOptions = {}): Promise<Contract> {
  const capabilities = client.getServerCapabilities() ?? {};
  // The SDK types schemas as any JSON value; the contract reads them through its own view of JSON Schema.
  const tools = (capabilities.tools ? (await client.listTools(undefined, options)).tools : []) as unknown[] as ToolEntry[];
  const resources: ResourceEntry[] = capabilities.resources ? (await client.listResources(undefined, options)).resources : [];
  const templates: ResourceTemplateEntry[] = capabilities.resources ? (await client.listResourceTemplates(undefined, options)).resourceTemplates : [];
  const prompts: PromptEntry[] = capabilities.prompts ? (await client.listPrompts(undefined, options)).prompts : [];
  const { name, version } = client.getServerVersion() ?? { name: 'unknown', version: 'unknown' };
  return {
    contractVersion: 1,
    server: { name, version },
    tools: byKey(
      tools.map((t) => pick(t, ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'])),
      'name',
    ),
    resources: byKey(
      resources.map((r) => pick(r, ['uri', 'name', 'title', 'description', 'mimeType'])),
      'uri',
    ),
    resourceTemplates: byKey(
      templates.map((r) => pick(r, ['uriTemplate', 'name', 'title', 'description', 'mimeType'])),
      'uriTemplate',
    ),
    prompts: byKey(
      prompts.map((p) => pick(p, ['name', 'title', 'description', 'arguments'])),
      'name',
    ),
  };
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): T {
  const out: Partial<T> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

function byKey<T>(items: T[], key: keyof T): T[] {
  return [...items].sort((a, b) => String(a[key]).localeCompare(String(b[key])));
}
