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

/** Resources, templates and prompts gathered across the app's classes during one build. */
export interface MemberCollector {
  readonly resources: CompiledResource[];
  readonly templates: CompiledResourceTemplate[];
  readonly prompts: CompiledPrompt[];
  /** Who claimed each URI, template and prompt name, to report duplicates. */
  readonly owners: Map<string, string>;
}

export function createMemberCollector(): MemberCollector {
  return { resources: [], templates: [], prompts: [], owners: new Map() };
}

/** Builds the `@Resource` and `@Prompt` methods of one class into the collector; problems go to `env.problems`. */
export function collectMembers(cls: Class, env: MemberBuildEnv, into: MemberCollector): void {
  const claim = (key: string, label: string, where: string): boolean => {
    const previous = into.owners.get(key);
    if (previous) {
      env.problems.push({ where, what: `its ${label} is already used by ${previous}`, fix: 'give one of them another one (the `name` option, or a different URI).' });
      return false;
    }
    into.owners.set(key, where);
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
      if (claim(`uri:${built.definition.uri}`, `URI '${built.definition.uri}'`, where)) into.resources.push(built.definition);
    } else if (claim(`template:${built.definition.uriTemplate}`, `URI template '${built.definition.uriTemplate}'`, where)) {
      into.templates.push(built.definition);
    }
  }
  for (const found of readMemberMetadata<PromptArgs>(cls, PROMPTS_KEY)) {
    const built = buildPrompt(cls, found, env);
    const where = `${cls.name}.${found.member.methodName}`;
    if (built && !unsendable(built.descriptor, where, PROMPT_SHAPE) && claim(`prompt:${built.name}`, `prompt name '${built.name}'`, where)) into.prompts.push(built);
  }
}
