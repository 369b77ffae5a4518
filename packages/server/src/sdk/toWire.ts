import { ConfigError, type PromptDescriptor, type ResourceDescriptor, type ResourceTemplateDescriptor, type ToolDescriptor } from '@toolwright/core';
import type { JSONObject, JSONValue, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/server';

/**
 * Core's descriptors are frozen and typed as JSON Schema; the SDK's list entries are plain
 * mutable JSON. These make the SDK's shape from ours once per list change (the catalog
 * caches the result), checking on the way that every value is JSON.
 */
export function toolToWire(tool: ToolDescriptor): Tool {
  return { ...jsonObject(tool), name: tool.name, inputSchema: { ...jsonObject(tool.inputSchema), type: 'object' } };
}

export function promptToWire(prompt: PromptDescriptor): Prompt {
  return { ...jsonObject(prompt), name: prompt.name };
}

export function resourceToWire(resource: ResourceDescriptor): Resource {
  return { ...jsonObject(resource), uri: resource.uri, name: resource.name };
}

export function templateToWire(template: ResourceTemplateDescriptor): ResourceTemplateType {
  return { ...jsonObject(template), uriTemplate: template.uriTemplate, name: template.name };
}

/** A copy of `value` typed as the SDK's JSON object; throws on a value JSON cannot carry. */
export function jsonObject(value: object): JSONObject {
  const out: JSONObject = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = json(v, key);
  return out;
}

function json(value: unknown, at: string): JSONValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((v, i) => json(v, `${at}[${i}]`));
  if (typeof value === 'object') return jsonObject(value);
  throw new ConfigError(`Toolwright: '${at}' is not JSON (${typeof value}); a descriptor may hold only JSON values.`);
}
