import $RefParser from '@apidevtools/json-schema-ref-parser';
import { ConfigError } from '@toolwright/core';
import { readCappedText } from '@toolwright/core/internal';
import { promises as fs, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The largest description file or download read (GitHub's whole description is about 12 MB). */
export const MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024;
/** How long one download of a description or a file it refers to may take. */
const DOWNLOAD_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

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
  }
  const policy = allow ?? defaultPolicy(document as string);
  let refused: string | undefined;
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
  try {
    const source = typeof document === 'string' ? document : structuredClone(document);
    return (await $RefParser.bundle(source, { resolve: resolveOptions } as Parameters<typeof $RefParser.bundle>[1] & object)) as Record<string, unknown>;
  } catch (error) {
    if (refused !== undefined) {
      throw new ConfigError(
        `Toolwright: the OpenAPI description refers to ${refused.slice(0, 300)}, which is outside the description's own ${typeof document === 'string' && /^https?:/i.test(document) ? 'origin' : 'folder'}, so it is not read. Inline it, or allow it with \`allowExternalRef\` (a function of the path or URL).`,
      );
    }
    throw new ConfigError(`Toolwright: the OpenAPI description cannot be read: ${(error as Error).message.slice(0, 500)}. Fix the document or its $refs.`);
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
