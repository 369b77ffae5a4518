import { ToolwrightError } from './ToolwrightError';

/**
 * Throw from a resource-template method when the URI names nothing (`users://999/profile`):
 * the client gets a JSON-RPC error with your message and the URI in `data`. Its code is
 * -32602 (Invalid params) in both protocol eras: 2026-07-28 requires it, and the MCP SDK
 * sends it to 2025-era clients too (2025-11-25 named -32002, which clients still accept
 * from older servers).
 */
export class ResourceNotFoundError extends ToolwrightError {
  static override readonly KIND = 'resource_not_found' as const;

  constructor(
    readonly uri: string,
    message = `Resource not found: ${uri}`,
  ) {
    super(message);
  }
}
