import { logLineText } from '../context/logText';
import { ToolwrightError } from './ToolwrightError';

/**
 * Throw from a resource-template method when the URI names nothing (`users://999/profile`):
 * the client gets a JSON-RPC error with your message and the URI in `data`. Its code is
 * -32602 (Invalid params) in both protocol eras: 2026-07-28 requires it, and the MCP SDK
 * sends it to 2025-era clients too (2025-11-25 named -32002, which clients still accept
 * from older servers). The default message quotes the URI with its control characters
 * written as `\uXXXX` and cut to 200 characters; the `uri` property keeps it exact.
 */
export class ResourceNotFoundError extends ToolwrightError {
  static override readonly KIND = 'resource_not_found' as const;

  constructor(
    readonly uri: string,
    // The URI comes from the wire: the default message quotes it on one line (no escape sequence a terminal would run), at most 200 characters of it.
    message = `Resource not found: ${logLineText(String(uri), 200)}`,
  ) {
    super(message);
  }
}
