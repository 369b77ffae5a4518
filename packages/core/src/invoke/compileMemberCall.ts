import type { ContainerLike } from '../container/ContainerLike';
import type { ToolContext, ToolLogger } from '../context/ToolContext';
import { CallInterrupt } from '../errors/CallInterrupt';
import { ResourceNotFoundError } from '../errors/ResourceNotFoundError';
import { ToolError } from '../errors/ToolError';
import type { Class } from '../metadata/Class';
import type { MemberParams } from '../build/buildMemberParams';
import type { ParamShape } from '../schema/paramSchema';
import { compileProfileSchema } from '../validation/compileSchemaValidator';
import type { MemberOutcome } from './MemberOutcome';

/** One `@Param` of a resource template or prompt, as the build resolved it. */
export interface BoundParam {
  readonly name: string;
  readonly index: number;
  readonly shape: ParamShape;
  readonly fallback: unknown;
}

export interface MemberCallSpec {
  /** 'resource template' or 'prompt', for messages. */
  readonly kind: string;
  readonly name: string;
  readonly cls: Class;
  readonly methodName: string;
  /** The resolved parameters; their `argsSchema` takes strings on the wire, converted to the declared types. */
  readonly resolved: Pick<MemberParams, 'bound' | 'ctxIndex' | 'arity' | 'argsSchema'>;
  readonly container: ContainerLike;
  readonly logger: ToolLogger;
  /** Shapes the method's return value; may throw to report a value it cannot serve. */
  readonly shape: (value: unknown) => unknown;
}

/**
 * Compiles the call of a resource or prompt method once: argument validation (strings are
 * converted to numbers and booleans, since URIs and prompt arguments carry only strings),
 * container resolution, the call, result shaping, and the error policy. Never throws, except
 * to pass on a `CallInterrupt` (the framework ending the call with a protocol answer).
 */
export function compileMemberCall<T>(spec: MemberCallSpec): (args: Record<string, unknown>, ctx: ToolContext | undefined) => Promise<MemberOutcome<T>> {
  const { kind, name, cls, methodName, container, logger } = spec;
  const { bound: params, ctxIndex, arity, argsSchema } = spec.resolved;
  const check = compileProfileSchema(argsSchema, { coerce: true });
  return async (args, ctx) => {
    const checked = check(args);
    if (!checked.ok) {
      const lines = checked.issues.map((i) => `- ${i.path || '(arguments)'}: ${i.message}`);
      return { ok: false, error: 'invalid_params', message: `Invalid arguments for ${kind} '${name}':\n${lines.join('\n')}` };
    }
    const valid = checked.value as Record<string, unknown>;
    const list = new Array<unknown>(arity);
    for (const p of params) {
      let value = valid[p.name];
      if (value === undefined && p.fallback !== undefined) value = p.fallback;
      list[p.index] = value !== undefined && p.shape.kind === 'date' ? new Date(value as string) : value;
    }
    if (ctxIndex !== undefined) list[ctxIndex] = ctx;
    try {
      const instance = container.get(cls) as Record<string, (...a: unknown[]) => unknown>;
      return { ok: true, value: spec.shape(await instance[methodName](...list)) as T };
    } catch (error) {
      if (CallInterrupt.is(error)) throw error;
      if (ResourceNotFoundError.is(error)) return { ok: false, error: 'not_found', message: error.message };
      if (ToolError.is(error)) return { ok: false, error: 'internal', message: error.message };
      logger.error(`${kind} '${name}' threw an unexpected error`, error);
      return { ok: false, error: 'internal', message: `The ${kind} '${name}' failed with an internal error. The server log has the details.` };
    }
  };
}
