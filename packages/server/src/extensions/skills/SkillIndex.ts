import type { Skill } from '../../sdk/skillsEntry';

/** A file a skill publishes: where it is under the skills folder, and what was published of it. */
export interface SkillFile {
  /** Its URI as `skills/list` announced it: each segment percent-encoded (`skill://notes/a%20b.md`). */
  readonly uri: string;
  /** Its path under the skills folder, `/`-separated, as the file system names it (`notes/a b.md`). */
  readonly path: string;
  readonly digest: string;
  readonly size: number;
  readonly mimeType: string;
}

/** One child of a skill's folder, as `resources/directory/read` lists it. */
export interface SkillDirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

export const SKILL_SCHEME = 'skill://';
export const DIRECTORY_MIME = 'inode/directory';
const MANIFEST = '/SKILL.md';

/** MIME types by file extension; anything else is `application/octet-stream`. */
const MIME = new Map(
  Object.entries({
    md: 'text/markdown',
    markdown: 'text/markdown',
    txt: 'text/plain',
    json: 'application/json',
    yaml: 'application/yaml',
    yml: 'application/yaml',
    toml: 'application/toml',
    xml: 'application/xml',
    csv: 'text/csv',
    html: 'text/html',
    css: 'text/css',
    js: 'text/javascript',
    mjs: 'text/javascript',
    ts: 'text/typescript',
    py: 'text/x-python',
    sh: 'text/x-shellscript',
    sql: 'application/sql',
    svg: 'image/svg+xml',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    pdf: 'application/pdf',
  }),
);

export function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return (dot > path.lastIndexOf('/') && MIME.get(path.slice(dot + 1).toLowerCase())) || 'application/octet-stream';
}

/** A URI's text after `skill://` with its percent-escapes decoded, as the template `skill://{+path}` hands it over. */
function decodedPath(uri: string): string {
  return decodeURIComponent(uri.slice(SKILL_SCHEME.length));
}

/**
 * The skills an app serves, indexed for the requests: each `SKILL.md` URI to its entry, each
 * published file URI to its file (and by its decoded path, for reads through the template),
 * each folder of a skill to its children. Built once from the catalog's entries; every lookup
 * is a `Map` get (URIs come from the wire).
 */
export class SkillIndex {
  readonly byManifest = new Map<string, Skill>();
  readonly files = new Map<string, SkillFile>();
  /** Each file by its URI's decoded text after `skill://` (`notes/a b.md`): what a read through the template gets. */
  readonly filesByPath = new Map<string, SkillFile>();
  readonly directories = new Map<string, SkillDirectoryChild[]>();
  /** The length of the longest URI served: a longer one from the wire names nothing, and is not quoted back. */
  readonly longestUri: number;

  constructor(
    readonly entries: readonly Skill[],
    prefix: string | undefined,
  ) {
    /** The length of `<prefix>/` before a file's path under the skills folder. */
    const under = prefix ? prefix.length + 1 : 0;
    for (const entry of entries) {
      this.byManifest.set(entry.uri, entry);
      if (!Array.isArray(entry.resources) || !entry.uri.endsWith(MANIFEST)) continue;
      const root = entry.uri.slice(0, -MANIFEST.length);
      this.directories.set(root, []);
      for (const file of entry.resources) {
        const path = decodedPath(file.uri);
        const published: SkillFile = { uri: file.uri, path: path.slice(under), digest: file.digest, size: file.size, mimeType: mimeTypeOf(path) };
        this.files.set(file.uri, published);
        this.filesByPath.set(path, published);
        this.addToFolders(root, file.uri, file.size);
      }
    }
    for (const children of this.directories.values()) children.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    let longest = 0;
    for (const uris of [this.byManifest.keys(), this.files.keys(), this.directories.keys()]) for (const uri of uris) longest = Math.max(longest, uri.length);
    this.longestUri = longest;
  }

  /** Lists `uri` in its folder, and each folder between the skill's root and it in its parent. */
  private addToFolders(root: string, uri: string, size: number): void {
    const segments = uri.slice(root.length + 1).split('/');
    let folder = root;
    segments.forEach((name, i) => {
      const child = `${folder}/${name}`;
      const last = i === segments.length - 1;
      const children = this.directories.get(folder)!;
      // The name as the file system has it; the URI keeps its escapes.
      const plain = decodeURIComponent(name);
      if (last) children.push({ uri: child, name: plain, mimeType: mimeTypeOf(plain), size });
      else if (!this.directories.has(child)) {
        children.push({ uri: child, name: plain, mimeType: DIRECTORY_MIME });
        this.directories.set(child, []);
      }
      folder = child;
    });
  }
}
