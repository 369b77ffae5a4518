import { ToolwrightError } from './ToolwrightError';

/**
 * Throw from a tool to report a failure the model should see and can act on
 * ("Division by zero", "City not found"). The message goes to the client as a
 * result with `isError: true`; any other thrown error is reported generically
 * and its stack is logged to stderr only.
 */
export class ToolError extends ToolwrightError {
  static override readonly KIND = 'tool' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
