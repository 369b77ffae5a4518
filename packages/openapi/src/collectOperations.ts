import { ConfigError, type JsonSchema } from '@toolwright/core';
import type { FromOpenApiOptions } from './FromOpenApiOptions';
import type { ArgumentPlacement, OpenApiOperation, SkippedOperation } from './OpenApiOperation';
import { defineOwn } from './defineOwn';
import { resolveRef } from './resolveRef';
import { SchemaConverter } from './SchemaConverter';
import { isValidToolName, toolNameFor } from './toolName';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Headers a client never sets through a tool: the server's credentials, and what the transport decides. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'content-length', 'host', 'cookie', 'proxy-authorization']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every operation of a bundled description, served or skipped with the reason. */
export function collectOperations(document: Obj, options: FromOpenApiOptions): { operations: OpenApiOperation[]; skipped: SkippedOperation[] } {
  const operations: OpenApiOperation[] = [];
  const skipped: SkippedOperation[] = [];
  const names = new Map<string, string>();
  const paths = isObj(document.paths) ? document.paths : {};
  for (const path of Object.keys(paths)) {
    const item = deref(document, paths[path], `paths/${path}`);
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const operationId = typeof op.operationId === 'string' ? op.operationId : undefined;
      const route = { method, path, operationId, tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [] };
      if (options.include && !options.include(route)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const override = options.names && (overrideFor(options.names, `${method} ${path}`) ?? (operationId === undefined ? undefined : overrideFor(options.names, operationId)));
      const toolName = override ?? toolNameFor(method, path, operationId);
      if (!isValidToolName(toolName)) {
        throw new ConfigError(`Toolwright: the tool name ${JSON.stringify(toolName)} given in \`names\` for ${where} is invalid. Use 1-128 characters of A-Z, a-z, 0-9, underscore, dot and hyphen.`);
      }
      const built = buildOperation(document, item, op, where, options);
      if ('reason' in built) {
        skipped.push({ ...route, reason: built.reason });
        continue;
      }
      const taken = names.get(toolName);
      if (taken !== undefined) {
        throw new ConfigError(
          `Toolwright: ${taken} and ${where} would both be the tool ${JSON.stringify(toolName)}. Name one of them in \`names\` (by operationId), or leave one out with \`include\`.`,
        );
      }
      names.set(toolName, where);
      const summary = typeof op.summary === 'string' ? op.summary : undefined;
      const description = typeof op.description === 'string' ? op.description : summary;
      operations.push({
        ...route,
        toolName,
        ...(summary !== undefined && { title: summary }),
        ...(description !== undefined && { description }),
        ...built,
        annotations: {
          readOnlyHint: method === 'get',
          destructiveHint: method === 'delete',
          idempotentHint: method === 'get' || method === 'put' || method === 'delete',
          openWorldHint: true,
        },
      });
    }
  }
  return { operations, skipped };
}

function overrideFor(names: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(names, key) ? names[key] : undefined;
}

function deref(document: Obj, value: unknown, at: string): Obj {
  const target = isObj(value) && typeof value.$ref === 'string' ? resolveRef(document, value.$ref, at) : value;
  return isObj(target) ? target : {};
}

type Built = Pick<OpenApiOperation, 'inputSchema' | 'arguments' | 'hasBody'> | { reason: string };

function buildOperation(document: Obj, item: Obj, op: Obj, where: string, options: FromOpenApiOptions): Built {
  const converter = new SchemaConverter(document);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const placements: ArgumentPlacement[] = [];
  // Operation parameters override path-level ones with the same name and location.
  const byKey = new Map<string, Obj>();
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, i) => {
      const p = deref(document, raw, `${where} parameters/${i}`);
      if (typeof p.name === 'string' && typeof p.in === 'string') byKey.set(`${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`, p);
    });
  }
  for (const p of byKey.values()) {
    const name = p.name as string;
    const location = p.in as string;
    if (location === 'cookie') {
      if (p.required === true) return { reason: `its required cookie parameter '${name}' is not supported` };
      continue;
    }
    if (location !== 'path' && location !== 'query' && location !== 'header') return { reason: `its parameter '${name}' is in '${location}', which is not supported` };
    if (isServerCredential(location, name, options)) continue;
    if (Object.hasOwn(properties, name) || name === 'body') return { reason: `two of its inputs are named '${name}'` };
    let schema: unknown = p.schema;
    let json = false;
    if (schema === undefined && isObj(p.content)) {
      const media = p.content['application/json'];
      if (!isObj(media)) return { reason: `its parameter '${name}' has no schema and no application/json content` };
      schema = media.schema ?? {};
      json = true;
    }
    const converted = converter.convert(schema ?? {}, `${where} parameter '${name}'`);
    defineOwn(properties, name, typeof p.description === 'string' && typeof converted === 'object' ? { ...converted, description: p.description } : converted);
    if (p.required === true || location === 'path') required.push(name);
    placements.push({ name, in: location, json });
  }
  let hasBody = false;
  if (op.requestBody !== undefined) {
    const body = deref(document, op.requestBody, `${where} requestBody`);
    const content = isObj(body.content) ? body.content : {};
    const type = Object.keys(content).find((t) => t === 'application/json' || /^application\/[^;]*\+json$/.test(t) || t.startsWith('application/json;'));
    if (type === undefined) {
      if (body.required === true) return { reason: `its request body is ${Object.keys(content).join(', ') || 'without a media type'}; only JSON bodies are supported` };
    } else {
      const media = content[type] as Obj;
      const converted = converter.convert(media.schema ?? {}, `${where} requestBody`);
      properties.body = typeof body.description === 'string' && typeof converted === 'object' ? { ...converted, description: body.description } : converted;
      if (body.required === true) required.push('body');
      hasBody = true;
    }
  }
  const defs = converter.definitions();
  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
    ...(defs && { $defs: defs }),
  } as JsonSchema & { type: 'object' };
  return { inputSchema, arguments: placements, hasBody };
}

function isServerCredential(location: string, name: string, options: FromOpenApiOptions): boolean {
  const auth = options.auth;
  if (location === 'header') {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) return true;
    if (auth?.type === 'apiKey' && auth.in === 'header' && auth.name.toLowerCase() === lower) return true;
    return options.headers !== undefined && Object.keys(options.headers).some((h) => h.toLowerCase() === lower);
  }
  return location === 'query' && auth?.type === 'apiKey' && auth.in === 'query' && auth.name === name;
}
