import type { ReadResourceResult } from '../content/ResourceContents';
import type { MemberOutcome } from '../invoke/MemberOutcome';
import type { Class } from '../metadata/Class';
import type { FoundMember } from '../metadata/readMemberMetadata';
import type { ResourceArgs, ViewFile } from '../metadata/ResourceOptions';
import type { CompiledResource } from './CompiledRegistry';
import type { ResourceDescriptor } from './ResourceDefinition';
import type { MemberBuildEnv } from './buildResource';
import { resolveAccess } from './resolveAccess';
import { resolvePipeline } from './resolvePipeline';

/**
 * Builds a view declared with `@UiResource(uri, { file })` on a class: its HTML is read once,
 * here, through `env.readViewFile`, and every read serves that text (no method runs). The
 * class's own `@UseGuards`, `@RequireScopes` and middleware still apply to it.
 */
export function buildFileView(cls: Class, found: FoundMember<ResourceArgs>, file: ViewFile, env: MemberBuildEnv): { kind: 'resource'; definition: CompiledResource } | undefined {
  const { uri, options, methodName } = found.member;
  const where = `${cls.name} ${methodName}`;
  if (!env.readViewFile) {
    env.problems.push({
      where,
      what: `its view file '${file.path}' cannot be read here: this build has no file reader`,
      fix: 'serve the app with createApp(), which reads view files, or return the HTML from a @UiResource method.',
    });
    return undefined;
  }
  let text: string;
  try {
    text = env.readViewFile(file.path, file.declaredIn);
  } catch (error) {
    env.problems.push({
      where,
      what: `its view file cannot be read: ${(error as Error).message}`,
      fix: "create or change the file as said, or point `file` at the view's HTML file: a path relative to this module, an absolute path, or a file: URL.",
    });
    return undefined;
  }
  const name = options.name ?? uri.slice('ui://'.length).replace(/[^A-Za-z0-9_-]+/g, '_');
  const size = new TextEncoder().encode(text).byteLength;
  const descriptor: ResourceDescriptor = stripUndefined({ uri, name, title: options.title, description: options.description, mimeType: options.mimeType, size, _meta: options._meta });
  const ui = (options._meta as { ui?: unknown } | undefined)?.ui;
  const access = resolveAccess(found.access, where, env.problems);
  const pipeline = resolvePipeline(found.pipeline, where, env.problems);
  // Each read gets its own objects (the text is shared: strings cannot change), so what a middleware does to one cannot change the next.
  const read = (): Promise<MemberOutcome<ReadResourceResult>> =>
    Promise.resolve({ ok: true, value: { contents: [{ uri, mimeType: options.mimeType, text, ...(ui !== undefined && { _meta: { ui: structuredClone(ui) } }) }] } });
  return { kind: 'resource', definition: Object.freeze({ uri, name, descriptor, target: cls, methodName, usesContext: false, ...(access && { access }), ...(pipeline && { pipeline }), read }) };
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
