import { ToolwrightError } from './ToolwrightError';

/** Thrown when an option or argument given to Toolwright is wrong; the message says which and how to fix it. */
export class ConfigError extends ToolwrightError {
  static override readonly KIND = 'config' as const;
}
