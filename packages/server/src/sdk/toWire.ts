import { ConfigError, type PromptDescriptor, type ResourceDescriptor, type ResourceTemplateDescriptor, type ToolDescriptor } from '@toolwright/core';
import type { JSONObject, JSONValue, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';

/**
 * Core's descriptors are frozen and typed as JSON Schema; the SDK's list entries are plain
 * mutable JSON. These make the SDK's shape from ours once per list change (the catalog
 * caches the result), checking on the way that every value is JSON.
 */
export function toolToWire(tool: ToolDescriptor): Tool {
  const owner = `tool '${tool.name}'`;
  return { ...jsonObject(tool, owner), name: tool.name, inputSchema: { ...jsonObject(tool.inputSchema, owner, 'inputSchema.'), type: 'object' } };
}

export function promptToWire(prompt: PromptDescriptor): Prompt {
  return { ...jsonObject(prompt, `prompt '${prompt.name}'`), name: prompt.name };
}

export function resourceToWire(resource: ResourceDescriptor): Resource {
  return { ...jsonObject(resource, `resource '${resource.uri}'`), uri: resource.uri, name: resource.name };
}

export function templateToWire(template: ResourceTemplateDescriptor): ResourceTemplateType {
  return { ...jsonObject(template, `resource template '${template.uriTemplate}'`), uriTemplate: template.uriTemplate, name: template.name };
}

/**
 * A copy of `value` typed as the SDK's JSON object; throws on a value JSON cannot carry, naming
 * its `owner` (`tool 'search'`) and its path in the descriptor (`prefix` starts it).
 */
export function jsonObject(value: object, owner = 'a descriptor', prefix = ''): JSONObject {
  const out: JSONObject = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = json(v, owner, `${prefix}${key}`);
  return out;
}

function json(value: unknown, owner: string, at: string): JSONValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((v, i) => json(v, owner, `${at}[${i}]`));
  if (typeof value === 'object') return jsonObject(value, owner, `${at}.`);
  const what = typeof value === 'number' ? String(value) : `a ${typeof value}`;
  throw new ConfigError(
    `Toolwright: ${owner} has '${at}' set to ${what}, which JSON cannot carry to clients. Give a string, a finite number, a boolean, null, an array or a plain object there, or leave it out.`,
  );
}
