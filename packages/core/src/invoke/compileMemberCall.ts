import type { ContainerLike } from '../container/ContainerLike';
import type { ToolContext, ToolLogger } from '../context/ToolContext';
import { ResourceNotFoundError } from '../errors/ResourceNotFoundError';
import { ToolError } from '../errors/ToolError';
import type { Class } from '../metadata/Class';
import type { MemberParams } from '../registry/buildMemberParams';
import { compileInvocation, type CallScope, type Invocation } from './compileInvocation';
import { compileParamsBinder } from './compileParamsBinder';
import type { MemberOutcome } from './MemberOutcome';
import { logFailure } from './sendable';
import { issueLines } from '../validation/ValidationIssue';

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
 * The protocol adapter of the one compiled invocation, for resources and prompts: the same
 * argument binder as tools (strings converted to numbers and booleans, since URIs and
 * prompt arguments carry only strings), then the outcome as a JSON-RPC answer. Never
 * throws, except to pass on a `CallInterrupt` (the framework ending the call with a protocol answer).
 */
export function compileMemberCall<T>(
  spec: MemberCallSpec,
): (args: Record<string, unknown>, ctx: ToolContext | undefined, scope?: CallScope, shape?: (value: unknown) => unknown) => Promise<MemberOutcome<T>> {
  const { kind, name, cls, methodName, container, logger } = spec;
  const { bound: params, ctxIndex, arity, argsSchema } = spec.resolved;
  const invoke = compileInvocation({ cls, methodName, container, bind: compileParamsBinder({ schema: argsSchema, params, ctxIndex, arity, coerce: true }), shape: spec.shape });
  const failed = (error: unknown): MemberOutcome<T> => {
    if (ResourceNotFoundError.is(error)) return { ok: false, error: 'not_found', message: error.message };
    if (ToolError.is(error)) return { ok: false, error: 'internal', message: error.message };
    logFailure(logger, kind, name, error);
    return { ok: false, error: 'internal', message: `The ${kind} '${name}' failed with an internal error. The server log has the details.` };
  };
  const answer = (outcome: Invocation): MemberOutcome<T> => {
    if (outcome.kind === 'invalid') {
      return { ok: false, error: 'invalid_params', message: `Invalid arguments for ${kind} '${name}':\n${issueLines(outcome.issues, '(arguments)')}` };
    }
    if (outcome.kind === 'threw') return failed(outcome.error);
    return { ok: true, value: outcome.value as T };
  };
  return async (args, ctx, scope, shape) => answer(await invoke(args, ctx, scope, shape));
}
