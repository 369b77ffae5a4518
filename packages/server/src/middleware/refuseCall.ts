import { ToolError, type MemberKind } from '@toolwright/core';
import { toolErrorResult } from '@toolwright/core/internal';

/**
 * How a built-in middleware refuses a call: a tool gets an `isError` result the model can
 * read; a resource read or prompt (which have no error results) a JSON-RPC error with the message.
 */
export function refuseCall(kind: MemberKind, message: string): unknown {
  if (kind === 'tool') return toolErrorResult(message);
  throw new ToolError(message);
}
