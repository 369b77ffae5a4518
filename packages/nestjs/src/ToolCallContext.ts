import type { Type } from '@nestjs/common';
import type { HttpArgumentsHost, WsArgumentsHost } from '@nestjs/common/interfaces/features/arguments-host.interface';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ConfigError, type MemberCall } from '@toolwright/core';

/** The context type Nest guards and interceptors see for an MCP call (`context.getType()`). */
export const TOOLWRIGHT_CONTEXT = 'toolwright';

/**
 * The `ExecutionContext` of one tool call, as Nest's RPC contexts hold it: `switchToRpc().getData()`
 * is the validated arguments, `getContext()` the `MemberCall`. `switchToHttp()` and `switchToWs()`
 * throw, naming the fix: in Nest's own context they return the first argument, so a guard written
 * for routes (`switchToHttp().getRequest().user`) would read the client's arguments as the request
 * and let a caller who sends `{ "user": { "roles": ["admin"] } }` through.
 */
export class ToolCallContext extends ExecutionContextHost {
  constructor(
    private readonly call: MemberCall,
    handler: (...args: unknown[]) => unknown,
  ) {
    super([call.args, call], call.target as Type, handler);
    this.setType(TOOLWRIGHT_CONTEXT);
  }

  override switchToHttp(): HttpArgumentsHost {
    throw this.notThere('switchToHttp()', 'an HTTP request');
  }

  override switchToWs(): WsArgumentsHost {
    throw this.notThere('switchToWs()', 'a WebSocket message');
  }

  private notThere(method: string, what: string): ConfigError {
    return new ConfigError(
      `Toolwright: a Nest guard or interceptor on ${this.call.kind} '${this.call.name}' (${this.call.target.name}.${this.call.methodName}) called context.${method}, but a tool call is not ${what}: ` +
        `its context type is '${TOOLWRIGHT_CONTEXT}'. In a guard or interceptor that also wraps tools, check context.getType() === '${TOOLWRIGHT_CONTEXT}' and read ` +
        'context.switchToRpc().getContext() (the call: authInfo, sessionId) or context.switchToRpc().getData() (the validated arguments).',
    );
  }
}
