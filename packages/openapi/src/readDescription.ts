import $RefParser, { getJsonSchemaRefParserDefaultOptions } from '@apidevtools/json-schema-ref-parser';
import { ConfigError } from '@toolwright/core';
import { readCappedText } from '@toolwright/core/internal';
import { promises as fs, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandedSize } from './expandedSize';

/** The largest description file or download read (GitHub's whole description is about 12 MB). */
export const MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024;
/** How long one download of a description or a file it refers to may take. */
const DOWNLOAD_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;
/**
 * The most objects and arrays a description may hold, shared ones (YAML aliases) counted each time
 * they are used: GitHub's whole description holds about 90,000, and walking 2,000,000 takes the
 * bundler a few seconds, while a few lines of nested aliases stand for billions.
 */
export const MAX_DESCRIPTION_OBJECTS = 2_000_000;

/** Which external `$ref`s may be read: an absolute file path or an http(s) URL in, yes or no out. */
export type RefPolicy = (url: string) => boolean;

/** What stops the bundler, said once (the bundler wraps errors its own way). */
class Refused extends Error {}

/**
 * The description as one object with only local `$ref`s. External `$ref`s are read only where
 * `allow` says (by default: files under the description file's folder, URLs on the description
 * URL's origin, nothing for a description given as an object); each read is capped in size and
 * time, and a download's redirects are checked like its first URL.
 */
export async function readDescription(document: string | object, allow: RefPolicy | undefined): Promise<Record<string, unknown>> {
  if (typeof document === 'object' && document !== null) {
    const outside = firstOutsideRef(document);
    if (outside === undefined) return document as Record<string, unknown>;
    if (allow === undefined) {
      throw new ConfigError(
        `Toolwright: the OpenAPI description refers to ${JSON.stringify(outside).slice(0, 200)}, outside itself; a description given as an object reads no files or URLs. Give the description as a file path or URL (its own folder or origin is read), or allow the reference with \`allowExternalRef\`.`,
      );
    }
    checkExpansion(document, 'given as an object');
  }
  const policy = allow ?? defaultPolicy(document as string);
  let refused: string | undefined;
  let tooLarge: string | undefined;
  let rootRead = typeof document === 'object';
  const check = (url: string, display: string): void => {
    const isRoot = !rootRead;
    rootRead = true;
    if (isRoot || policy(url)) return;
    refused ??= display;
    throw new Refused(display);
  };
  const resolveOptions = {
    file: {
      order: 100,
      canRead: (file: { url: string }) => !/^https?:/i.test(file.url),
      read: async (file: { url: string }) => {
        const path = fileSystemPath(file.url);
        check(path, path);
        const stat = await fs.stat(path);
        if (!stat.isFile()) throw new Refused(`${path} is not a regular file`);
        if (stat.size > MAX_DESCRIPTION_BYTES) throw new Refused(`${path} is larger than ${MAX_DESCRIPTION_BYTES} bytes`);
        return await fs.readFile(path);
      },
    },
    http: {
      order: 200,
      canRead: (file: { url: string }) => /^https?:/i.test(file.url),
      read: async (file: { url: string }) => {
        const isRoot = !rootRead;
        check(file.url, file.url);
        return await download(file.url, isRoot ? () => true : policy, (url) => (refused ??= url));
      },
    },
  };
  // Each file's parsed value is sized before the bundler walks it.
  const defaults = getJsonSchemaRefParserDefaultOptions().parse;
  const sized = (parser: typeof defaults.json) => ({
    parse: async (file: { url: string }) => {
      const value: unknown = await (parser as { parse: (file: { url: string }) => unknown }).parse(file);
      try {
        checkExpansion(value, file.url);
      } catch (error) {
        tooLarge ??= (error as Error).message;
        throw error;
      }
      return value;
    },
  });
  const parseOptions = { json: sized(defaults.json), yaml: sized(defaults.yaml) };
  try {
    const source = typeof document === 'string' ? document : structuredClone(document);
    const bundled = (await $RefParser.bundle(source, { resolve: resolveOptions, parse: parseOptions } as Parameters<typeof $RefParser.bundle>[1] & object)) as Record<string, unknown>;
    // The bundler may fall back to another parser (plain text) after ours refused a file.
    if (tooLarge !== undefined) throw new ConfigError(tooLarge);
    return bundled;
  } catch (error) {
    if (tooLarge !== undefined) throw new ConfigError(tooLarge);
    if (refused !== undefined) {
      throw new ConfigError(
        `Toolwright: the OpenAPI description refers to ${refused.slice(0, 300)}, which is outside the description's own ${typeof document === 'string' && /^https?:/i.test(document) ? 'origin' : 'folder'}, so it is not read. Inline it, or allow it with \`allowExternalRef\` (a function of the path or URL).`,
      );
    }
    throw new ConfigError(`Toolwright: the OpenAPI description cannot be read: ${(error as Error).message.slice(0, 500)}. Fix the document or its $refs.`);
  }
}

/** Refuses a value that holds itself, or more than MAX_DESCRIPTION_OBJECTS objects once shared ones are counted each time. */
function checkExpansion(value: unknown, where: string): void {
  const size = expandedSize(value, MAX_DESCRIPTION_OBJECTS);
  if (size === Infinity) {
    throw new ConfigError(
      `Toolwright: the OpenAPI description ${where.slice(0, 300)} contains itself (a YAML alias or an object inside its own value), so it has no end. Use a $ref for recursive schemas.`,
    );
  }
  if (size > MAX_DESCRIPTION_OBJECTS) {
    throw new ConfigError(
      `Toolwright: the OpenAPI description ${where.slice(0, 300)} holds more than ${MAX_DESCRIPTION_OBJECTS} objects and arrays once its shared parts (YAML aliases) are counted each time they are used. Use $refs instead of aliases that repeat large parts, or split the description.`,
    );
  }
}

/** Files under the description file's folder, or URLs on the description URL's origin. */
function defaultPolicy(document: string): RefPolicy {
  if (/^https?:/i.test(document)) {
    const origin = new URL(document).origin;
    return (url) => /^https?:/i.test(url) && new URL(url).origin === origin;
  }
  const folder = realPath(dirname(resolve(document.startsWith('file:') ? fileURLToPath(document) : document)));
  return (path) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) && !isAbsolute(path)) return false;
    const rel = relative(folder, realPath(path));
    return rel !== '' && rel.split(sep)[0] !== '..' && !isAbsolute(rel);
  };
}

/** Reads `url`, following at most 5 redirects, each allowed by `policy`; capped in size and time. */
async function download(url: string, policy: RefPolicy, onRefused: (url: string) => void): Promise<Buffer> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await fetch(current, { redirect: 'manual', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current).href;
      if (!/^https?:/i.test(next) || !policy(next)) {
        onRefused(next);
        throw new Refused(next);
      }
      current = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${current} answered HTTP ${response.status}`);
    }
    const text = await readCappedText(response, MAX_DESCRIPTION_BYTES);
    if (text === undefined) throw new Error(`${current} is larger than ${MAX_DESCRIPTION_BYTES} bytes`);
    return Buffer.from(text, 'utf8');
  }
  throw new Error(`${url} redirected more than ${MAX_REDIRECTS} times`);
}

/** The bundler's file URL (`/dir/a%20b.yaml`, `file:///dir/a.yaml`) as a path. */
function fileSystemPath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  try {
    return resolve(decodeURI(url));
  } catch {
    return resolve(url);
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The first `$ref` in `value` that points outside the document (a file or URL). Iterative: descriptions nest deeply. */
function firstOutsideRef(value: object): string | undefined {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) return child;
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return undefined;
}
