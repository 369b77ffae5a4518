import type { PromptArgs } from '../metadata/PromptOptions';
import { PROMPTS_KEY, RESOURCES_KEY } from '../metadata/keys';
import type { Class } from '../metadata/Class';
import { readMemberMetadata } from '../metadata/readMemberMetadata';
import type { ResourceArgs } from '../metadata/ResourceOptions';
import { buildPrompt } from './buildPrompt';
import { buildResource, type MemberBuildEnv } from './buildResource';
import type { CompiledPrompt, CompiledResource, CompiledResourceTemplate } from './CompiledRegistry';
import { descriptorProblem } from './descriptorProblem';
import { PROMPT_SHAPE, RESOURCE_SHAPE, type DescriptorShape } from './descriptorShapes';
import { duplicateNameProblem, type NameClaim, type NameKind } from './duplicateName';

/** Resources, templates and prompts gathered across the app's classes during one build. */
export interface MemberCollector {
  readonly resources: CompiledResource[];
  readonly templates: CompiledResourceTemplate[];
  readonly prompts: CompiledPrompt[];
  /** Who claimed each URI, template and prompt name, to report duplicates. */
  readonly owners: Map<string, NameClaim>;
}

export function createMemberCollector(): MemberCollector {
  return { resources: [], templates: [], prompts: [], owners: new Map() };
}

/** Builds the `@Resource` and `@Prompt` methods of one class into the collector; problems go to `env.problems`. */
export function collectMembers(cls: Class, env: MemberBuildEnv, into: MemberCollector): void {
  const claim = (key: string, kind: NameKind, found: { readonly declaredOn: Class; readonly member: { readonly methodName: string } }): boolean => {
    const current: NameClaim = { where: `${cls.name}.${found.member.methodName}`, cls, declaredOn: found.declaredOn, methodName: found.member.methodName };
    const previous = into.owners.get(key);
    if (previous) {
      env.problems.push(duplicateNameProblem(current, previous, kind));
      return false;
    }
    into.owners.set(key, current);
    return true;
  };
  const unsendable = (descriptor: object, where: string, shape: DescriptorShape): boolean => {
    const problem = descriptorProblem(descriptor, where, shape);
    if (problem) env.problems.push(problem);
    return problem !== undefined;
  };
  for (const found of readMemberMetadata<ResourceArgs>(cls, RESOURCES_KEY)) {
    const built = buildResource(cls, found, env);
    if (!built) continue;
    const where = `${cls.name}.${found.member.methodName}`;
    if (unsendable(built.definition.descriptor, where, RESOURCE_SHAPE)) continue;
    if (built.kind === 'resource') {
      if (claim(`uri:${built.definition.uri}`, resourceKind(`URI '${built.definition.uri}'`), found)) into.resources.push(built.definition);
    } else if (claim(`template:${built.definition.uriTemplate}`, resourceKind(`URI template '${built.definition.uriTemplate}'`), found)) {
      into.templates.push(built.definition);
    }
  }
  for (const found of readMemberMetadata<PromptArgs>(cls, PROMPTS_KEY)) {
    const built = buildPrompt(cls, found, env);
    const where = `${cls.name}.${found.member.methodName}`;
    if (built && !unsendable(built.descriptor, where, PROMPT_SHAPE) && claim(`prompt:${built.name}`, promptKind(built.name), found)) into.prompts.push(built);
  }
}

const OTHER_ONE = 'give one of them another one (the `name` option, or a different URI).';

function resourceKind(label: string): NameKind {
  return { label, fix: OTHER_ONE, rename: "another URI: @Resource('other://uri')", members: 'resources' };
}

function promptKind(name: string): NameKind {
  return { label: `prompt name '${name}'`, fix: OTHER_ONE, rename: "@Prompt({ name: 'other_name' })", members: 'prompts' };
}
