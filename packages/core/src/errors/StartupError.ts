import { ToolwrightError } from './ToolwrightError';

/** Thrown by `listen` (and `app.start()`) when a start hook fails: the app did not start serving. The message names the hook. */
export class StartupError extends ToolwrightError {
  static override readonly KIND = 'startup' as const;
}
