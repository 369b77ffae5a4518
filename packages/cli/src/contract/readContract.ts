import type { StdioClient } from '../client/StdioClient';
import type { Contract, PromptEntry, ResourceEntry, ResourceTemplateEntry, ToolEntry } from './Contract';

/** Lists everything the server offers (every page), keeping the fields that make the contract. */
export async function readContract(client: StdioClient): Promise<Contract> {
  const capabilities = client.initialize.capabilities;
  const tools = capabilities.tools ? await client.listAll<ToolEntry>('tools/list', 'tools') : [];
  const resources = capabilities.resources ? await client.listAll<ResourceEntry>('resources/list', 'resources') : [];
  const templates = capabilities.resources ? await client.listAll<ResourceTemplateEntry>('resources/templates/list', 'resourceTemplates') : [];
  const prompts = capabilities.prompts ? await client.listAll<PromptEntry>('prompts/list', 'prompts') : [];
  const { name, version } = client.initialize.serverInfo;
  return {
    contractVersion: 1,
    server: { name, version },
    tools: byKey(tools.map((t) => pick(t, ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'])), 'name'),
    resources: byKey(resources.map((r) => pick(r, ['uri', 'name', 'title', 'description', 'mimeType'])), 'uri'),
    resourceTemplates: byKey(templates.map((r) => pick(r, ['uriTemplate', 'name', 'title', 'description', 'mimeType'])), 'uriTemplate'),
    prompts: byKey(prompts.map((p) => pick(p, ['name', 'title', 'description', 'arguments'])), 'name'),
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
