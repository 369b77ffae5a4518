import { BuildError, ConfigError, compileSchemaValidator, type JsonSchema } from '@toolwright/core';
import type { FromOpenApiOptions, OpenApiRoute, RouteMap } from './FromOpenApiOptions';
import type { ArgumentPlacement, OpenApiOperation, SkippedOperation } from './OpenApiOperation';
import { defineOwn } from './defineOwn';
import type { LinearPatterns } from './LinearPatterns';
import { resolveRef } from './resolveRef';
import { plainText, SchemaConverter } from './SchemaConverter';
import { isValidToolName, toolNameFor } from './toolName';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Headers a client never sets through a tool: the server's credentials, and what the transport decides. */
const RESERVED_HEADERS = new Set([
  'authorization',
  'content-type',
  'accept',
  'content-length',
  'host',
  'cookie',
  'proxy-authorization',
  // Hop-by-hop: fetch refuses them, or they would change how the request is framed.
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);
/** An HTTP token (RFC 9110): what a header or cookie name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The styles each location allows, the first being its default (OpenAPI 3.x, Style Values). */
const STYLES: Record<ArgumentPlacement['in'], readonly ArgumentPlacement['style'][]> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every operation of a bundled description, served or skipped with the reason; `patterns` runs (and vets) the description's patterns. */
export function collectOperations(document: Obj, options: FromOpenApiOptions, patterns: LinearPatterns): { operations: OpenApiOperation[]; skipped: SkippedOperation[] } {
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
      const servedAs = routeFor(route, options.routes);
      if (servedAs === 'exclude') continue;
      const where = `${method.toUpperCase()} ${path}`;
      const pathProblem = pathTemplateProblem(path);
      if (pathProblem !== undefined) {
        throw new ConfigError(
          `Toolwright: the path of ${where.slice(0, 300)} ${pathProblem}, so its requests could leave baseUrl. Fix the path in the description, or leave the operation out with \`include\`.`,
        );
      }
      const override = options.names && (overrideFor(options.names, `${method} ${path}`) ?? (operationId === undefined ? undefined : overrideFor(options.names, operationId)));
      const toolName = override ?? toolNameFor(method, path, operationId);
      if (!isValidToolName(toolName)) {
        throw new ConfigError(`Toolwright: the tool name ${JSON.stringify(toolName)} given in \`names\` for ${where} is invalid. Use 1-128 characters of A-Z, a-z, 0-9, underscore, dot and hyphen.`);
      }
      const built = buildOperation(document, item, op, where, options, patterns);
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
      const summary = typeof op.summary === 'string' ? plainText(op.summary) : undefined;
      const description = typeof op.description === 'string' ? plainText(op.description) : summary;
      operations.push({
        ...route,
        servedAs,
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

/** What the first matching `routes` rule makes of an operation; a tool when none matches. */
function routeFor(route: OpenApiRoute, routes: FromOpenApiOptions['routes']): RouteMap['to'] {
  for (const [i, rule] of (routes ?? []).entries()) {
    if (rule.methods && !rule.methods.includes(route.method)) continue;
    if (rule.path instanceof RegExp ? !rule.path.test(route.path) : typeof rule.path === 'string' && !route.path.startsWith(rule.path)) continue;
    if (rule.tags && !rule.tags.some((t) => route.tags.includes(t))) continue;
    if (rule.to !== 'tool' && rule.to !== 'resource' && rule.to !== 'exclude') throw new ConfigError(`Toolwright: routes[${i}].to is ${JSON.stringify(rule.to)}; use 'tool', 'resource' or 'exclude'.`);
    if (rule.to === 'resource' && route.method !== 'get') {
      throw new ConfigError(`Toolwright: routes[${i}] maps ${route.method.toUpperCase()} ${route.path} to a resource; only GET operations can be read as resources. Add methods: ['get'] to the rule.`);
    }
    return rule.to;
  }
  return 'tool';
}

function overrideFor(names: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(names, key) ? names[key] : undefined;
}

function deref(document: Obj, value: unknown, at: string): Obj {
  const target = isObj(value) && typeof value.$ref === 'string' ? resolveRef(document, value.$ref, at) : value;
  return isObj(target) ? target : {};
}

type Built = Pick<OpenApiOperation, 'inputSchema' | 'arguments' | 'hasBody' | 'bodyEncoding' | 'binaryFields' | 'outputSchema'> | { reason: string };
/** Request body media types served, by preference. */
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

function buildOperation(document: Obj, item: Obj, op: Obj, where: string, options: FromOpenApiOptions, patterns: LinearPatterns): Built {
  const converter = new SchemaConverter(document, where, patterns);
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
    if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') return { reason: `its parameter '${name}' is in '${location}', which is not supported` };
    if (isServerCredential(location, name, options)) continue;
    if (Object.hasOwn(properties, name) || name === 'body') return { reason: `two of its inputs are named '${name}'` };
    if ((location === 'header' || location === 'cookie') && !TOKEN.test(name)) {
      throw new ConfigError(
        `Toolwright: the ${location} parameter ${JSON.stringify(name).slice(0, 100)} of ${where} is not a valid HTTP ${location} name, so no request could carry it. Fix the description, or leave the operation out with \`include\`.`,
      );
    }
    const style = p.style ?? STYLES[location][0];
    if (typeof style !== 'string' || !(STYLES[location] as readonly string[]).includes(style)) {
      return { reason: `its ${location} parameter '${name}' has style ${JSON.stringify(style)}, which a ${location} parameter cannot have (${STYLES[location].join(', ')})` };
    }
    const explode = typeof p.explode === 'boolean' ? p.explode : style === 'form';
    let schema: unknown = p.schema;
    let json = false;
    if (schema === undefined && isObj(p.content)) {
      const media = p.content['application/json'];
      if (!isObj(media)) return { reason: `its parameter '${name}' has no schema and no application/json content` };
      schema = media.schema ?? {};
      json = true;
    }
    const converted = converter.convert(schema ?? {}, `${where} parameter '${name}'`);
    defineOwn(properties, name, typeof p.description === 'string' && typeof converted === 'object' ? { ...converted, description: plainText(p.description) } : converted);
    if (p.required === true || location === 'path') required.push(name);
    placements.push({ name, in: location, json, style: style as ArgumentPlacement['style'], explode });
  }
  let hasBody = false;
  let bodyEncoding: OpenApiOperation['bodyEncoding'] = 'json';
  let binaryFields: string[] = [];
  if (op.requestBody !== undefined) {
    const body = deref(document, op.requestBody, `${where} requestBody`);
    const content = isObj(body.content) ? body.content : {};
    const types = Object.keys(content);
    const json = types.find((t) => t === 'application/json' || /^application\/[^;]*\+json$/.test(t) || t.startsWith('application/json;'));
    const type = json ?? types.find((t) => t.split(';')[0]!.trim() === FORM) ?? types.find((t) => t.split(';')[0]!.trim() === MULTIPART);
    if (type === undefined) {
      if (body.required === true) return { reason: `its request body is ${types.join(', ') || 'without a media type'}; only JSON, form and multipart bodies are supported` };
    } else {
      const media = content[type] as Obj;
      let converted = converter.convert(media.schema ?? {}, `${where} requestBody`);
      if (type !== json) {
        bodyEncoding = type.startsWith(FORM) ? 'form' : 'multipart';
        const fields = formFields(document, converted, converter);
        if (!fields) return { reason: `its ${type} request body is not described as an object with properties` };
        if (bodyEncoding === 'multipart') ({ schema: converted, binary: binaryFields } = withBase64Files(fields));
        else converted = fields;
      }
      properties.body = typeof body.description === 'string' && typeof converted === 'object' ? { ...converted, description: plainText(body.description) } : converted;
      if (body.required === true) required.push('body');
      hasBody = true;
    }
  }
  for (const variable of templateVariables(where)) {
    if (!placements.some((a) => a.in === 'path' && a.name === variable)) {
      throw new ConfigError(
        `Toolwright: the path of ${where} has {${variable}}, but the operation has no path parameter named '${variable}', so its requests would go to a literal {${variable}}. Declare the parameter in the description, or leave the operation out with \`include\`.`,
      );
    }
  }
  converter.checkLoops();
  const defs = converter.definitions();
  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
    ...(defs && { $defs: defs }),
  } as JsonSchema & { type: 'object' };
  try {
    compileSchemaValidator(inputSchema, { compilePattern: patterns.compile });
  } catch (error) {
    const problems = error instanceof BuildError ? error.problems.map((p) => `${p.what} (${p.fix})`).join('; ') : (error as Error).message;
    throw new ConfigError(`Toolwright: the input schema of ${where} cannot be enforced: ${problems}. Fix the description, or leave the operation out with \`include\`.`);
  }
  const outputSchema = options.outputSchemas === false ? undefined : responseSchema(document, op, where, patterns);
  return { inputSchema, arguments: placements, hasBody, bodyEncoding, binaryFields, ...(outputSchema && { outputSchema }) };
}

/** A form body's object schema (a `$ref` followed), or undefined when it has no properties. */
function formFields(document: Obj, schema: JsonSchema, converter: SchemaConverter): JsonSchema | undefined {
  let s: unknown = schema;
  if (isObj(s) && typeof s.$ref === 'string') s = converter.definitions()?.[s.$ref.slice('#/$defs/'.length)];
  return isObj(s) && isObj(s.properties) ? (s as JsonSchema) : undefined;
}

/** A multipart schema whose file fields (`format: binary`, or a `contentMediaType`) take base64 text, and their names. */
function withBase64Files(schema: JsonSchema): { schema: JsonSchema; binary: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const binary: string[] = [];
  for (const name of Object.keys(schema.properties ?? {})) {
    const field = schema.properties![name]!;
    const isFile = field.type === 'string' && (field.format === 'binary' || field.format === 'byte' || typeof field.contentMediaType === 'string');
    if (isFile) binary.push(name);
    defineOwn(properties, name, isFile ? { type: 'string', contentEncoding: 'base64', description: `${field.description ? `${field.description} ` : ''}(a file: its bytes as base64)`.trim() } : field);
  }
  return { schema: { ...schema, properties }, binary };
}

/**
 * The success response's JSON object schema, as a tool's `outputSchema`: only when it is an object
 * the validator can check, its patterns included (on RE2, or as `allowBacktrackingPattern` allows).
 */
function responseSchema(document: Obj, op: Obj, where: string, patterns: LinearPatterns): (JsonSchema & { type: 'object' }) | undefined {
  const responses = isObj(op.responses) ? op.responses : {};
  const status = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()[0];
  if (status === undefined) return undefined;
  const response = deref(document, responses[status], `${where} responses/${status}`);
  const content = isObj(response.content) ? response.content : {};
  const type = Object.keys(content).find((t) => t === 'application/json' || /^application\/[^;]*\+json$/.test(t) || t.startsWith('application/json;'));
  const media = type === undefined ? undefined : content[type];
  if (!isObj(media) || !isObj(media.schema)) return undefined;
  const converter = new SchemaConverter(document, where, patterns);
  let schema: JsonSchema;
  try {
    schema = converter.convert(media.schema, `${where} responses/${status}`);
    converter.checkLoops();
  } catch {
    return undefined;
  }
  const defs = converter.definitions();
  const root = typeof schema.$ref === 'string' && defs ? defs[schema.$ref.slice('#/$defs/'.length)] : schema;
  if (!isObj(root) || root.type !== 'object') return undefined;
  const output = { ...schema, type: 'object' as const, ...(defs && { $defs: defs }) };
  try {
    compileSchemaValidator(output, { compilePattern: patterns.compile });
  } catch {
    return undefined; // a keyword the validator would not enforce: better no output schema than a wrong one
  }
  return output;
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

/** What makes a path template unsafe to append to the base URL, or undefined when it is a plain absolute path. */
function pathTemplateProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'does not start with /';
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[?#\\\u0000-\u001F\u007F]/.test(path)) return 'holds ?, #, a backslash or a control character';
  // Variables are encoded when sent; the literal parts must not step out of the base path.
  const literal = path.replace(/\{[^{}]*\}/g, 'x');
  if (literal.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return "has a '.' or '..' segment";
  return undefined;
}

/** The `{name}` variables of an operation's path (`where` is `GET /pets/{petId}`). */
function templateVariables(where: string): string[] {
  const path = where.slice(where.indexOf(' ') + 1);
  return [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
}
