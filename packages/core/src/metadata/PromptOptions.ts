import type { Icon } from './ToolOptions';

export interface PromptOptions {
  /** The name clients ask for. Default: the method name in snake_case. */
  name?: string;
  /** A short human-readable name for UIs. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** What `@Prompt` records on the class. */
export interface PromptArgs {
  readonly methodName: string;
  readonly options: Readonly<PromptOptions>;
  readonly isStatic: boolean;
}
