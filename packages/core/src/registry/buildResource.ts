import type { ReadResourceResult } from '../content/ResourceContents';
import type { ContainerLike } from '../container/ContainerLike';
import type { ToolContext, ToolLogger } from '../context/ToolContext';
import { compileMemberCall } from '../invoke/compileMemberCall';
import { normalizeReadResult } from '../invoke/normalizeReadResult';
import { MCP_APP_MIME_TYPE } from '../apps/McpApps';
import type { Class } from '../metadata/Class';
import type { FoundMember } from '../metadata/readMemberMetadata';
import { cacheHintProblem } from '../metadata/CacheHint';
import type { ResourceArgs } from '../metadata/ResourceOptions';
import type { ReadViewFile } from './BuildOptions';
import { buildFileView } from './buildFileView';
import { compileUriTemplate, isUriTemplate, type UriTemplateMatcher } from '../uri/compileUriTemplate';
import { UriTemplateError } from '../uri/UriTemplateError';
import type { BuildProblem } from './BuildProblem';
import { resolveAccess } from './resolveAccess';
import { resolvePipeline } from './resolvePipeline';
import type { CallScope } from '../invoke/compileInvocation';
import { buildMemberParams } from './buildMemberParams';
import type { ResourceDescriptor, ResourceTemplateDescriptor } from './ResourceDefinition';
import type { CompiledResource, CompiledResourceTemplate } from './CompiledRegistry';
import { defaultToolName } from './toolName';
import { optionsObjectProblem } from './optionsObjectProblem';

export interface MemberBuildEnv {
  readonly container: ContainerLike;
  readonly logger: ToolLogger;
  readonly problems: BuildProblem[];
  /** Reads a file-backed view's HTML (see `BuildOptions.readViewFile`). */
  readonly readViewFile?: ReadViewFile;
}

/** Builds one `@Resource` method: a static resource, or a template when its URI has `{expressions}`. */
export function buildResource(
  cls: Class,
  found: FoundMember<ResourceArgs>,
  env: MemberBuildEnv,
): { kind: 'resource'; definition: CompiledResource } | { kind: 'template'; definition: CompiledResourceTemplate } | undefined {
  const { member, params, declaredOn } = found;
  if (member.file) return buildFileView(cls, found, member.file, env);
  const { methodName, options, uri } = member;
  const where = `${cls.name}.${methodName}`;
  const problem = (what: string, fix: string) => void env.problems.push({ where, what, fix });
  const notOptions = optionsObjectProblem(where, '@Resource()', options, "@Resource('notes://{id}', { description: 'One note.' })");
  if (notOptions) return void env.problems.push(notOptions);
  if (member.isStatic) return problem('is static', 'make it an instance method: resources are read on an instance built by the container.');
  if (typeof uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    return problem(`its URI '${String(uri)}' has no scheme`, "give an absolute URI such as 'file:///notes/today.md' or 'notes://{id}'.");
  }
  const name = options.name ?? defaultToolName(methodName);
  const isTemplate = isUriTemplate(uri);
  let matcher: UriTemplateMatcher | undefined;
  if (isTemplate) {
    try {
      matcher = compileUriTemplate(uri);
    } catch (error) {
      const fix = error instanceof UriTemplateError ? error.fix : 'write an RFC 6570 template such as `users://{id}/profile`.';
      return problem(`its URI template '${uri}' is invalid: ${(error as Error).message}`, fix);
    }
  }
  const resolved = buildMemberParams(cls, declaredOn, methodName, params, { ...env, arrive: { as: 'strings', allowArrays: true }, noun: 'template variable' });
  if (!resolved) return undefined;
  if (!isTemplate && resolved.bound.length > 0) {
    return problem(`has @Param '${resolved.bound[0].name}', but its URI '${uri}' is not a template`, 'put the variable in the URI (`notes://{id}`), or remove the parameter.');
  }
  for (const b of resolved.bound) {
    if (matcher && !matcher.variables.includes(b.name)) {
      problem(`has @Param '${b.name}', but its template '${uri}' has no variable of that name`, `use one of: ${matcher.variables.join(', ') || '(none)'}.`);
    }
  }
  const cacheProblem = options.cache && cacheHintProblem(options.cache);
  if (cacheProblem) problem(`has an invalid cache hint: ${cacheProblem}`, "use e.g. `cache: { ttlMs: 60000, cacheScope: 'private' }`.");
  if (isTemplate && options.size !== undefined) problem('gives a `size` for a template', 'remove it: a size belongs to one resource, not to a template.');

  const common = { name, title: options.title, description: options.description, mimeType: options.mimeType, annotations: options.annotations, icons: options.icons, _meta: options._meta };
  const read = compileMemberCall<ReadResourceResult>({
    kind: isTemplate ? 'resource template' : 'resource',
    name,
    cls,
    methodName,
    resolved,
    container: env.container,
    logger: env.logger,
    shape: (v) => v,
  });
  const usesContext = resolved.ctxIndex !== undefined;
  const access = resolveAccess(found.access, where, env.problems);
  const pipeline = resolvePipeline(found.pipeline, where, env.problems);
  const mimeType = options.mimeType;
  // Contents are shaped for the URI read: what a method returns may leave `uri` to it.
  const shapeFor = (uriRead: string) => (value: unknown) => withViewMeta(normalizeReadResult(value, uriRead, mimeType), mimeType, options._meta);
  const members = { target: cls, methodName, usesContext, ...(access && { access }), ...(pipeline && { pipeline }), ...(options.cache && { cache: options.cache }) };

  if (!matcher) {
    const descriptor: ResourceDescriptor = stripUndefined({ uri, ...common, size: options.size });
    const shapeStatic = shapeFor(uri);
    return { kind: 'resource', definition: Object.freeze({ uri, name, descriptor, ...members, read: (ctx: ToolContext | undefined, scope?: CallScope) => read({}, ctx, scope, shapeStatic) }) };
  }
  const descriptor: ResourceTemplateDescriptor = stripUndefined({ uriTemplate: uri, ...common });
  const m = matcher;
  return {
    kind: 'template',
    definition: Object.freeze({
      uriTemplate: uri,
      name,
      descriptor,
      ...members,
      variables: m.variables,
      match: (u: string) => m.match(u),
      // Variables the method does not take are part of the URI only.
      read: (u: string, vars: Record<string, string | string[]>, ctx: ToolContext | undefined, scope?: CallScope) =>
        read(
          pick(
            vars,
            resolved.bound.map((b) => b.name),
          ),
          ctx,
          scope,
          shapeFor(u),
        ),
      completers: resolved.completers,
    }),
  };
}

function pick(values: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (values[n] !== undefined) out[n] = values[n];
  return out;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * An MCP App view's `_meta.ui` (CSP, permissions, domain, border) on each content it reads as
 * well as in `resources/list`: hosts read it from the content they render. A content that
 * sets its own `_meta` keeps it.
 */
function withViewMeta(result: ReadResourceResult, mimeType: string | undefined, meta: Record<string, unknown> | undefined): ReadResourceResult {
  if (mimeType !== MCP_APP_MIME_TYPE || !meta || !Object.hasOwn(meta, 'ui')) return result;
  return { ...result, contents: result.contents.map((c) => (c._meta ? c : { ...c, _meta: { ui: meta.ui } })) };
}
