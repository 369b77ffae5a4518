import type { ToolResult } from '../content/ToolResult';
import type { ToolLogger } from '../context/ToolContext';
import { CallInterrupt } from '../errors/CallInterrupt';
import { ToolError } from '../errors/ToolError';
import { logFailure } from './sendable';

/**
 * The safe `isError` result of a tool whose method (or middleware) threw, or returned what JSON
 * cannot carry: a `ToolError`'s
 * message is shown to the model; anything else is logged and answered with a message that
 * gives nothing away. A `CallInterrupt` (the framework ending the call) is thrown on.
 */
export function toolFailure(name: string, error: unknown, logger: ToolLogger): ToolResult {
  if (CallInterrupt.is(error)) throw error;
  if (ToolError.is(error)) return toolErrorResult(error.message);
  logFailure(logger, 'tool', name, error);
  return toolErrorResult(`Tool '${name}' failed with an internal error. The server log has the details.`);
}

/** A tool result the client sees as a failure (`isError: true`) with one text block. */
export function toolErrorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
