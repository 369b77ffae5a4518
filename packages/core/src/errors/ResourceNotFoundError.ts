import { ToolwrightError } from './ToolwrightError';

/**
 * Throw from a resource-template method when the URI names nothing (`users://999/profile`):
 * the client gets JSON-RPC error -32002 "Resource not found" with the URI in `data`.
 */
export class ResourceNotFoundError extends ToolwrightError {
  static override readonly KIND = 'resource_not_found' as const;

  constructor(readonly uri: string, message = `Resource not found: ${uri}`) {
    super(message);
  }
}
