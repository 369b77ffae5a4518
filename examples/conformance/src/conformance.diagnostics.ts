import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import type { App } from '@toolwright/server';

/**
 * Diagnostic tools of the 2026-07-28 `server-stateless` scenario: a tool that logs (a
 * 2026-07-28 request gets log messages only when its `_meta` sets a log level), and two that
 * change the tool and prompt lists, so `subscriptions/listen` streams get `list_changed`.
 * They reach the app through the function their constructor gets (see app.ts: the example's
 * container); the build makes every class once at startup, before the app exists.
 */
export class ConformanceDiagnostics {
  constructor(private readonly app: () => App) {}

  @Tool({ name: 'test_logging_tool', description: 'Logs one message at info level.' })
  logging(@Ctx() ctx: ToolContext) {
    ctx.log.info('Diagnostic trace logging activated');
    return 'Logging evaluated';
  }

  @Tool({ name: 'test_trigger_tool_change', description: 'Changes the tool list (hides and shows itself), so clients get tools list_changed.' })
  triggerToolChange() {
    this.app().tools.disable('test_trigger_tool_change');
    this.app().tools.enable('test_trigger_tool_change');
    return 'Tool list changed';
  }

  @Tool({ name: 'test_trigger_prompt_change', description: 'Changes the prompt list, so clients get prompts list_changed.' })
  triggerPromptChange() {
    this.app().prompts.disable('test_simple_prompt');
    this.app().prompts.enable('test_simple_prompt');
    return 'Prompt list changed';
  }
}
