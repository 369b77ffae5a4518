import type { JsonSchema } from '../schema/JsonSchema';
import type { Class, ClassThunk } from './Class';
import type { ToolUiOptions } from '../apps/McpApps';
import type { PatternCompiler } from '../validation/PatternCompiler';

/** Hints about a tool's behaviour (MCP `ToolAnnotations`). Clients must treat them as untrusted. */
export interface ToolAnnotations {
  /** A human-readable title (prefer `ToolOptions.title`). */
  title?: string;
  /** The tool does not modify its environment. Default false. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates (meaningful when not read-only). Default true. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. Default false. */
  idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. Default true. */
  openWorldHint?: boolean;
}

/** An icon for a tool, resource, prompt or server (MCP 2025-11-25). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ToolOptions {
  /**
   * The name clients call. Default: the method name in snake_case
   * (`getWeather` -> `get_weather`, `fetchHTMLPage` -> `fetch_html_page`).
   * 1-128 characters of `A-Z a-z 0-9 _ . -`.
   */
  name?: string;
  /** A short human-readable name for UIs. */
  title?: string;
  /** What the tool does and when to use it. The model reads this to choose tools: write it as an instruction. */
  description?: string;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** Free-form metadata passed through in `tools/list` as `_meta`. */
  _meta?: Record<string, unknown>;
  /**
   * The MCP App view (SEP-1865) this tool's results are shown in: `_meta.ui.resourceUri` (and
   * the flat `_meta["ui/resourceUri"]` some hosts read) name it, `visibility` says whether the
   * model, the view or both may call the tool. Return meaningful text too: a client without
   * the MCP Apps extension shows only that.
   */
  ui?: ToolUiOptions;
  /**
   * The class of the returned object (a class-validator DTO), or an arrow function returning it.
   * The tool then advertises an `outputSchema`, and its results carry `structuredContent`
   * (validated before they are sent) plus the same JSON as text. When omitted, a class
   * declared as the method's synchronous return type is used.
   */
  output?: Class | ClassThunk;
  /**
   * The input DTO class, for methods without parameter decorators: the method then
   * receives the validated DTO instance as its first argument and the call context as its second.
   */
  input?: Class | ClassThunk;
  /**
   * Fail the call with an `isError` result after this many milliseconds, and abort
   * `ctx.signal` so the method can stop its work. Overrides the app's `toolTimeoutMs`.
   */
  timeoutMs?: number;
  /**
   * A raw JSON Schema for the input, for shapes a class cannot express. It is served in
   * `tools/list` exactly as given (`$schema`, `$defs` and all), the arguments are validated
   * against it, and the method receives the argument object as its first parameter (and
   * the call context as its second, or where `@Ctx()` says).
   */
  inputSchema?: JsonSchema & { type: 'object' };
  /**
   * A raw JSON Schema for the structured result, for shapes a class cannot express (instead
   * of `output`). It is served in `tools/list` as given; a plain object the method returns is
   * validated against it and sent as `structuredContent` (plus the same JSON as text); a
   * `ToolResult` the method returns is sent as is, so its `structuredContent` must match.
   */
  outputSchema?: JsonSchema & { type: 'object' };
  /**
   * Compiles the regular expressions of this tool's input and output schemas (`pattern`, and the
   * names of `patternProperties`). Default: JavaScript's own `RegExp` (`new RegExp(source, 'u')`),
   * right for patterns the app wrote. A backtracking engine can take exponential time on a crafted
   * argument (`^(a+)+$` against `'aaaa…a!'`), blocking the whole server, so a tool whose schema
   * comes from a third party should run its patterns on a linear-time engine: `fromOpenApi` of
   * `@toolwright/openapi` does. Every pattern is compiled once at build; one the compiler throws
   * for is a build error.
   */
  compilePattern?: PatternCompiler;
  /**
   * Run the call as a task (the `io.modelcontextprotocol/tasks` extension of 2026-07-28):
   * `tools/call` answers at once with a task handle, the method runs on, and the client polls
   * `tasks/get` for its progress and result, answers its questions with `tasks/update` and
   * stops it with `tasks/cancel`. Served by an app that serves the `tasks()` extension.
   * - `true` or `'optional'`: a task when the client declared the extension, a plain call otherwise;
   * - `'required'`: only as a task (a 2026-07-28 client that did not declare it gets -32021).
   * The method is written as for a plain call: `ctx.signal` is aborted by `tasks/cancel`,
   * `ctx.progress` becomes the task's status message, `ctx.elicit` and friends its input requests.
   * - `{ mode, inputFirst: true }`: the questions the method asks before it does anything else
   *   go out as a plain 2026-07-28 round trip (`input_required` on `tools/call`); the task
   *   starts with the round that runs past them.
   * - `{ mode, restartable: true }`: the call may run again from the start: when the instance
   *   running it stops, the next `tasks/get` on any instance sharing the task store runs it
   *   again (up to `tasks({ maxAttempts })` runs). Without it, such a task is marked `failed`.
   *   Mark only calls that are safe to repeat.
   * In `tools/list` of the 2025-11-25 era a task tool carries `execution: { taskSupport: 'optional' }`
   * (that era serves it as a plain call); 2026-07-28 has no such field.
   */
  task?: boolean | 'optional' | 'required' | { readonly mode?: 'optional' | 'required'; readonly inputFirst?: boolean; readonly restartable?: boolean };
}

/** What `@Tool` records on the class. */
export interface ToolArgs {
  readonly methodName: string;
  readonly options: Readonly<ToolOptions>;
  readonly isStatic: boolean;
}
