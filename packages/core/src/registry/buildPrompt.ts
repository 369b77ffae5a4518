import type { PromptResult } from '../content/PromptMessage';
import { compileMemberCall } from '../invoke/compileMemberCall';
import { normalizePromptResult } from '../invoke/normalizePromptResult';
import type { Class } from '../metadata/Class';
import type { PromptArgs } from '../metadata/PromptOptions';
import type { FoundMember } from '../metadata/readMemberMetadata';
import type { MemberBuildEnv } from './buildResource';
import { resolveAccess } from './resolveAccess';
import { resolvePipeline } from './resolvePipeline';
import type { CallScope } from '../invoke/compileInvocation';
import { buildMemberParams } from './buildMemberParams';
import type { PromptArgumentDescriptor, PromptDescriptor } from './PromptDefinition';
import type { CompiledPrompt } from './CompiledRegistry';
import { defaultToolName, TOOL_NAME_PATTERN } from './toolName';
import { optionsObjectProblem } from './optionsObjectProblem';

/** Builds one `@Prompt` method: its declared arguments, compiled call and completion providers. */
export function buildPrompt(cls: Class, found: FoundMember<PromptArgs>, env: MemberBuildEnv): CompiledPrompt | undefined {
  const { member, params, declaredOn } = found;
  const { methodName, options } = member;
  const where = `${cls.name}.${methodName}`;
  const problem = (what: string, fix: string) => void env.problems.push({ where, what, fix });
  const notOptions = optionsObjectProblem(where, '@Prompt()', options, "@Prompt({ name: 'summarize', description: 'Summarize a text.' })");
  if (notOptions) return void env.problems.push(notOptions);
  if (member.isStatic) return problem('is static', 'make it an instance method: prompts run on an instance built by the container.');
  const name = options.name ?? defaultToolName(methodName);
  if (!TOOL_NAME_PATTERN.test(name)) problem(`its prompt name '${name}' is invalid`, 'use 1-128 characters of A-Z, a-z, 0-9, underscore, dot and hyphen.');
  const resolved = buildMemberParams(cls, declaredOn, methodName, params, { ...env, arrive: { as: 'strings', allowArrays: false }, noun: 'prompt argument' });
  if (!resolved) return undefined;

  const args: PromptArgumentDescriptor[] = resolved.declared.map(({ param, required }) =>
    stripUndefined({ name: param.name!, title: param.options?.title, description: param.options?.description, required }),
  );
  const descriptor: PromptDescriptor = stripUndefined({
    name,
    title: options.title,
    description: options.description,
    arguments: args.length > 0 ? args : undefined,
    icons: options.icons,
    _meta: options._meta,
  });
  const call = compileMemberCall<PromptResult>({
    kind: 'prompt',
    name,
    cls,
    methodName,
    resolved,
    container: env.container,
    logger: env.logger,
    shape: (value) => normalizePromptResult(value, name),
  });
  const access = resolveAccess(found.access, where, env.problems);
  const pipeline = resolvePipeline(found.pipeline, where, env.problems);
  return Object.freeze({
    name,
    descriptor,
    target: cls,
    methodName,
    usesContext: resolved.ctxIndex !== undefined,
    ...(access && { access }),
    ...(pipeline && { pipeline }),
    get: (a: Record<string, string> | undefined, ctx: Parameters<CompiledPrompt['get']>[1], scope?: CallScope) => call(a ?? {}, ctx, scope),
    completers: resolved.completers,
  });
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
