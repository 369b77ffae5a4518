import { isAbsolute, resolve } from 'node:path';
import { BuildError, ConfigError } from '@toolwright/core';
import type { CacheHint } from '@toolwright/core';
import { cacheHintProblem, logLineText } from '@toolwright/core/internal';
import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';
import { paginate } from '../../surface/paginate';
import { defineExtension } from '../defineExtension';
import type { Extension, ExtensionApp, ExtensionContext } from '../Extension';
import type { SkillCatalog } from '../../sdk/skillsEntry';
import { SkillIndex } from './SkillIndex';
import { skillFolderFiles } from './skillFolderFiles';
import { SKILL_FILE_TEMPLATE, skillResourceClass } from './skillResourceClass';
import { problemText, skillProblemFix } from './skillProblemFix';
import { watchSkills } from './watchSkills';

/** The Skills extension's identifier (SEP-2640). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export interface SkillsOptions {
  /** The folder of skill folders, each with a `SKILL.md` (`skills/code-review/SKILL.md`); relative to `process.cwd()`. */
  readonly dir: string;
  /** An organisational prefix: `'acme'` serves `skill://acme/<skill>/...`. Default: none. */
  readonly prefix?: string;
  /** Entries per `skills/list` page (a skill is never split across pages) and children per directory page. Default 100. */
  readonly pageSize?: number;
  /** Serve `resources/directory/read` on the skills' folders (and declare `directoryRead`). Default true. */
  readonly directoryRead?: boolean;
  /** The most files and bytes one skill may publish. Default: SEP-2640's 512 files and 16 MiB; beyond them the build fails. */
  readonly limits?: { readonly files?: number; readonly bytes?: number };
  /** How long 2026-07-28 clients may reuse `skills/list`, `skills/get` and directory results. Default `{ ttlMs: 0, cacheScope: 'private' }`. */
  readonly cache?: CacheHint;
  /**
   * Watch the folder while the app runs, and serve what changes (a skill added, removed or
   * edited) without a restart: `skills/list` and `resources/list` change and clients get
   * `notifications/resources/list_changed`. A change that breaks a rule is logged and the last
   * good skills keep being served. Default: on under `toolwright dev` (`TOOLWRIGHT_DEV=1`), off elsewhere.
   */
  readonly watch?: boolean;
}

/**
 * Serves a folder of Agent Skills (SEP-2640): `skills/list` (paged, a skill's entry never
 * split), `skills/get`, each skill's `SKILL.md` in `resources/list`, every published file
 * through `resources/read` at `skill://<skill-path>/<file>` with its `sha256:` digest and size
 * in the skill's entry, and `resources/directory/read` on the skills' folders. The folder is
 * read once, in `createApp`: a `SKILL.md` whose frontmatter breaks a rule (a `name` that is
 * not the folder's name, a missing `description`, ...) or a skill over the limits fails it
 * with a `BuildError` naming the file and the rule. With `watch` (on under `toolwright dev`),
 * edits are served while the app runs, and clients are told.
 *
 * @example
 * const app = await createApp({ name: 'helper', version: '1.0.0', tools: [Tools], extensions: [skills({ dir: 'skills' })] });
 */
export function skills(options: SkillsOptions): Extension {
  const problems = optionProblems(options);
  if (problems.length > 0) throw new ConfigError(`Toolwright: skills(...) options are not valid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  const root = isAbsolute(options.dir) ? options.dir : resolve(process.cwd(), options.dir);
  const pageSize = options.pageSize ?? 100;
  const directoryRead = options.directoryRead !== false;
  const cache = { ttlMs: options.cache?.ttlMs ?? 0, cacheScope: options.cache?.cacheScope ?? 'private' };
  const watch = options.watch ?? process.env.TOOLWRIGHT_DEV === '1';
  let index: SkillIndex | undefined;
  let catalog: SkillCatalog | undefined;
  /** The resource keys the current catalog serves (its SKILL.md URIs and the file template), removed before a reload serves the new ones. */
  let publishedKeys: readonly string[] = [];
  let reload: ((app: ExtensionApp) => Promise<void>) | undefined;
  const served = (): SkillIndex => {
    if (!index) throw new ProtocolError(ErrorCodes.InternalError, 'Internal error');
    return index;
  };
  const cached = <T extends object>(result: T, ctx: ExtensionContext): T => (ctx.era === 'modern' ? { ...result, ...cache } : result);
  const cursorParams = { type: 'object', properties: { cursor: { type: 'string' } } } as const;

  return defineExtension({
    id: SKILLS_EXTENSION,
    settings: directoryRead ? { directoryRead: true } : {},
    requests: {
      'skills/list': {
        params: cursorParams,
        handle: ({ cursor }: { cursor?: string }, ctx) => cached(paginate('skills', [...served().entries], cursor, pageSize), ctx),
      },
      'skills/get': {
        params: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
        handle: ({ uri }: { uri: string }, ctx) => {
          const skill = served().byManifest.get(uri);
          if (!skill) throw refused(served(), uri, (quoted) => `Unknown skill: ${quoted}. Call skills/list for the skills this server serves (each by the URI of its SKILL.md).`);
          return cached({ skill }, ctx);
        },
      },
      ...(directoryRead && {
        'resources/directory/read': {
          params: { type: 'object', properties: { uri: { type: 'string' }, cursor: { type: 'string' } }, required: ['uri'] },
          handle: ({ uri, cursor }: { uri: string; cursor?: string }, ctx: ExtensionContext) => {
            const children = served().directories.get(uri);
            if (!children)
              throw refused(served(), uri, (quoted) => `Not a directory: ${quoted}. Directory reads take the folder of a skill (its SKILL.md URI without '/SKILL.md') or one of its subfolders.`);
            return cached(paginate('resources', [...children], cursor, pageSize), ctx);
          },
        },
      }),
    },
    async prepare() {
      const { SkillCatalog, SkillCatalogError, SKILL_LIMITS } = require('../../sdk/skillsEntry') as typeof import('../../sdk/skillsEntry');
      const files = skillFolderFiles(root, options.limits?.bytes ?? SKILL_LIMITS.bytes);
      try {
        catalog = await SkillCatalog.load(files, {
          strict: true,
          pageSize,
          onWarning: () => undefined,
          ...(options.prefix && { prefix: options.prefix }),
          ...(options.limits && { limits: options.limits }),
        });
      } catch (error) {
        if (!SkillCatalogError.isInstance(error)) throw error;
        throw new BuildError(error.problems.map((p) => ({ where: `skills ${p.path || root}`, what: problemText(p.message), fix: skillProblemFix(p.message) })));
      }
      const publish = () => {
        index = new SkillIndex(catalog!.entries, options.prefix);
        const cls = skillResourceClass(index, (path, size) => files.readPublished(path, size));
        publishedKeys = [...index.entries.map((e) => e.uri), SKILL_FILE_TEMPLATE];
        return cls;
      };
      reload = async (app) => {
        const changes = await catalog!.reload();
        if (changes.added.length + changes.removed.length + changes.changed.length === 0) return;
        // The SKILL.md resources and the file template are served again from the new catalog: lists change, clients are told.
        for (const key of publishedKeys) app.resources.remove(key);
        await app.add(publish());
      };
      return [publish()];
    },
    ...(watch && {
      start: (app: ExtensionApp) => watchSkills(root, () => reload!(app), app.logger),
    }),
  });
}

/**
 * -32602 for a URI that names nothing served; one longer than any served is described, not sent
 * back (the answer would be as large as the request), and control characters (a terminal's escape
 * sequences) are quoted as `\uXXXX`.
 */
function refused(index: SkillIndex, uri: string, message: (quoted: string) => string): ProtocolError {
  if (uri.length <= index.longestUri) return new ProtocolError(ErrorCodes.InvalidParams, message(logLineText(uri, index.longestUri)), { uri });
  return new ProtocolError(ErrorCodes.InvalidParams, message(`a URI of ${uri.length} characters, longer than any this server serves`));
}

function optionProblems(options: SkillsOptions): string[] {
  if (typeof options !== 'object' || options === null) return ["pass the skills folder: skills({ dir: 'skills' })."];
  const problems: string[] = [];
  if (typeof options.dir !== 'string' || options.dir.length === 0) problems.push("dir must name the folder of skill folders, e.g. skills({ dir: 'skills' }).");
  if (options.prefix !== undefined && !/^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/.test(options.prefix))
    problems.push(`prefix ${JSON.stringify(options.prefix)} must be one path segment of lowercase letters, digits, '.', '_' or '-'.`);
  if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) problems.push(`pageSize must be a positive integer, got ${String(options.pageSize)}.`);
  if (options.cache) {
    const problem = cacheHintProblem(options.cache);
    if (problem) problems.push(`cache: ${problem}.`);
  }
  return problems;
}
