import { ToolwrightError } from './ToolwrightError';

const BRAND = Symbol.for('toolwright.resourceNotFound');

/**
 * Throw from a resource-template method when the URI names nothing (`users://999/profile`):
 * the client gets JSON-RPC error -32002 "Resource not found" with the URI in `data`.
 */
export class ResourceNotFoundError extends ToolwrightError {
  readonly [BRAND] = true;

  constructor(readonly uri: string, message = `Resource not found: ${uri}`) {
    super(message);
  }

  static override is(value: unknown): value is ResourceNotFoundError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
