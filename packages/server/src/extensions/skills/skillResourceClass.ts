import { Param, Resource, ResourceNotFoundError, ToolwrightError, type Class, type ReadResourceResult } from '@toolwright/core';
import { logLineText } from '@toolwright/core/internal';
import type { SkillFile, SkillIndex } from './SkillIndex';
import { SKILL_SCHEME } from './SkillIndex';

/** The most characters of a requested URI an error message repeats (control characters written as `\uXXXX`). */
const MAX_QUOTED = 200;

/** The resource template every published file is read through. */
export const SKILL_FILE_TEMPLATE = `${SKILL_SCHEME}{+path}`;

/** Reads a published file's bytes from the skills folder, refusing unread a file whose size on disk is not the published `size`. */
export type ReadSkillFile = (path: string, size: number) => Promise<Uint8Array>;

/**
 * A class of resources, made from the skills an app serves, that the app builds like any
 * other: each `SKILL.md` a static resource (listed with the skill's name and description,
 * `text/markdown`), and every published file readable through the template `skill://{+path}`.
 * A read checks the bytes against the published digest and size, so a client never gets a
 * file that differs from what `skills/list` announced.
 */
export function skillResourceClass(index: SkillIndex, readFile: ReadSkillFile): Class {
  /** Reads `file` (undefined: none is published at `requested`); the content carries the URI `skills/list` announced. */
  const read = async (file: SkillFile | undefined, requested: string): Promise<ReadResourceResult> => {
    if (!file) throw new ResourceNotFoundError(requested, `Resource not found: ${logLineText(requested, MAX_QUOTED)}`);
    const { uri } = file;
    const bytes = await readFile(file.path, file.size);
    const digest = `sha256:${Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex')}`;
    if (bytes.byteLength !== file.size || digest !== file.digest) {
      throw new ToolwrightError(`skill file ${file.path} changed on disk since the server published it; restart the server to publish the new version`);
    }
    const text = textOf(bytes, file.mimeType);
    return { contents: [text === undefined ? { uri, mimeType: file.mimeType, blob: Buffer.from(bytes).toString('base64') } : { uri, mimeType: file.mimeType, text }] };
  };

  class SkillResources {}
  const proto = SkillResources.prototype as unknown as Record<string, unknown>;
  const define = (key: string, value: (...args: never[]) => unknown): PropertyDescriptor => {
    Object.defineProperty(proto, key, { value, writable: true, configurable: true });
    return Object.getOwnPropertyDescriptor(proto, key)!;
  };
  index.entries.forEach((entry, i) => {
    const key = `skill${i}`;
    const manifest = index.files.get(entry.uri);
    const descriptor = define(key, () => read(index.files.get(entry.uri), entry.uri));
    Resource(entry.uri, {
      name: entry.frontmatter.name,
      description: entry.frontmatter.description,
      mimeType: 'text/markdown',
      ...(manifest && { size: manifest.size }),
    })(proto, key, descriptor);
  });
  // The template hands over the path with its escapes decoded: looked up as such.
  const file = define('file', (path: string) => read(index.filesByPath.get(path), `${SKILL_SCHEME}${path}`));
  Reflect.defineMetadata('design:paramtypes', [String], proto, 'file');
  Param('path', { type: () => String, description: 'The path of a file of a skill, after skill://' })(proto, 'file', 0);
  Resource(SKILL_FILE_TEMPLATE, { name: 'skill_file', description: 'A file of one of the skills this server serves (see skills/list for each skill and its files).' })(proto, 'file', file);
  return SkillResources;
}

const TEXT = /^(?:text\/|application\/(?:json|yaml|toml|xml|sql)|image\/svg\+xml)/;

/** The bytes as text when the type is textual and they are valid UTF-8; otherwise undefined (sent as a blob). */
function textOf(bytes: Uint8Array, mimeType: string): string | undefined {
  if (!TEXT.test(mimeType)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
