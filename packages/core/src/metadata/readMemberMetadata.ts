import { ACCESS_KEY, type AccessArgs } from './AccessArgs';
import type { Class } from './Class';
import { PARAMS_KEY, PROMPTS_KEY, RESOURCES_KEY, TOOLS_KEY } from './keys';
import { readOwnList } from './ownMetadata';
import type { ParamArgs } from './ParamOptions';
import { PIPELINE_KEY, type MemberPipeline, type PipelineArgs } from '../pipeline/PipelineArgs';

/** The authorization rules that apply to one member, gathered along the class chain (child first). */
export interface MemberAccessArgs {
  /** Rules on the classes themselves. */
  readonly classRules: readonly AccessArgs[];
  /** Rules on the method. */
  readonly methodRules: readonly AccessArgs[];
}

/** A decorated method (tool, resource, prompt) found on a class or an ancestor, with its parameter records. */
export interface FoundMember<A extends { readonly methodName: string }> {
  readonly member: A;
  readonly params: readonly ParamArgs[];
  readonly access: MemberAccessArgs;
  /** Its `@UseMiddleware` and `@UseGuards`, outermost first (ancestor classes, the class, then the method). */
  readonly pipeline: MemberPipeline;
  /** The class whose prototype declared the decorators (for `design:*` metadata). */
  readonly declaredOn: Class;
}

/**
 * Collects the methods recorded under `key`, walking the prototype chain so inherited
 * members are served; a subclass's own declaration of a method wins over its parent's.
 * Reads each record once: the cost is linear in the number of decorators.
 */
export function readMemberMetadata<A extends { readonly methodName: string }>(cls: Class, key: string): FoundMember<A>[] {
  const chain: Class[] = [];
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.push(c as Class);
  const classRules: AccessArgs[] = [];
  const methodRules = new Map<string, AccessArgs[]>();
  for (const owner of chain) {
    for (const rule of readOwnList<AccessArgs>(ACCESS_KEY, owner)) {
      if (rule.methodName === undefined) classRules.push(rule);
      else group(methodRules, rule.methodName, rule);
    }
  }
  const pipelines = readPipelines(chain);
  const found = new Map<string, FoundMember<A>>();
  for (const owner of chain) {
    const members = readOwnList<A>(key, owner);
    if (members.length === 0) continue;
    const params = new Map<string, ParamArgs[]>();
    for (const p of readOwnList<ParamArgs>(PARAMS_KEY, owner)) group(params, p.methodName, p);
    for (const member of members) {
      if (found.has(member.methodName)) continue;
      const access = { classRules, methodRules: methodRules.get(member.methodName) ?? [] };
      found.set(member.methodName, { member, declaredOn: owner, params: params.get(member.methodName) ?? [], access, pipeline: pipelines(member.methodName) });
    }
  }
  return [...found.values()];
}

/** The pipeline of each method of a class chain (child first): class records of the ancestors first, then method records. */
function readPipelines(chain: readonly Class[]): (methodName: string) => MemberPipeline {
  const classLevel: PipelineArgs[] = [];
  const byMethod = new Map<string, PipelineArgs[]>();
  for (const owner of [...chain].reverse()) {
    for (const record of readOwnList<PipelineArgs>(PIPELINE_KEY, owner)) {
      if (record.methodName === undefined) classLevel.push(record);
      else group(byMethod, record.methodName, record);
    }
  }
  if (classLevel.length === 0 && byMethod.size === 0) return () => NO_PIPELINE;
  return (methodName) => {
    const records = [...classLevel, ...(byMethod.get(methodName) ?? [])];
    const middleware = records.flatMap((r) => (r.kind === 'middleware' ? r.items : []));
    const guards = records.flatMap((r) => (r.kind === 'guards' ? r.items : []));
    return Object.freeze({ middleware: Object.freeze(middleware), guards: Object.freeze(guards) });
  };
}

const NO_PIPELINE: MemberPipeline = Object.freeze({ middleware: Object.freeze([]), guards: Object.freeze([]) });

/** Whether a class has at least one `@Tool`, `@Resource` or `@Prompt` method (its own or inherited). */
export function hasServedMethods(cls: Class): boolean {
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if ([TOOLS_KEY, RESOURCES_KEY, PROMPTS_KEY].some((key) => Reflect.hasOwnMetadata(key, c as Class))) return true;
  }
  return false;
}

/** Whether a module export is a class Toolwright serves (see `hasServedMethods`). */
export function isToolClass(value: unknown): value is Class {
  return typeof value === 'function' && hasServedMethods(value as Class);
}

function group<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}
