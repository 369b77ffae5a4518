import { CallInterrupt, Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { IsBoolean, IsOptional, IsString } from '@toolwright/core/dto';
import { ProtocolError } from '@toolwright/server';

/** The answers the task fixtures ask for. */
export class DeleteForm {
  @IsBoolean() confirm!: boolean;
}
export class DetailForm {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsBoolean() confirm?: boolean;
}

/** Waits `ms`, or rejects when `signal` aborts (a cancelled task stops there). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

/**
 * The task fixtures of the tasks extension scenarios (SEP-2663): plain methods marked
 * `@Tool({ task })`. A client that declared `io.modelcontextprotocol/tasks` gets a task
 * handle and polls `tasks/get`; one that did not gets the plain result (or -32021 for
 * `task: 'required'`).
 */
export class ConformanceTasks {
  @Tool({ description: 'Greets someone (a plain tool, never a task).' })
  greet(@Param('name', { description: 'Who to greet.' }) name: string) {
    return `Hello, ${name}!`;
  }

  @Tool({ name: 'slow_compute', description: 'Works for `seconds` seconds (reporting progress), then answers. Runs as a task.', task: true })
  async slowCompute(
    @Param('seconds', { description: 'How long to work (0: at once).' }) seconds: number,
    @Param('label', { description: 'A label echoed in the result.', optional: true, type: () => String }) label: string | undefined,
    @Ctx() ctx: ToolContext,
  ) {
    const steps = Math.max(1, Math.ceil(seconds * 4));
    for (let i = 1; i <= steps && seconds > 0; i++) {
      await sleep((seconds * 1000) / steps, ctx.signal);
      await ctx.progress(i, steps, `computing ${label ?? ''} (${i}/${steps})`);
    }
    return `Computed ${label ?? 'result'} after ${seconds} s.`;
  }

  @Tool({ name: 'failing_job', description: 'Always ends with a tool error. Runs only as a task.', task: 'required' })
  async failingJob(@Ctx() ctx: ToolContext) {
    await sleep(200, ctx.signal);
    throw new ToolError('The job failed: the input could not be processed.');
  }

  @Tool({ name: 'protocol_error_job', description: 'Ends with a protocol error (the task fails). Runs as a task.', task: true })
  async protocolErrorJob(@Ctx() ctx: ToolContext) {
    await sleep(50, ctx.signal);
    throw new CallInterrupt('the job crashed', { cause: new ProtocolError(-32603, 'The job crashed before it could answer.') });
  }

  @Tool({ name: 'confirm_delete', description: 'Asks the user to confirm, then deletes the file. Runs as a task.', task: true })
  async confirmDelete(@Param('filename', { description: 'The file to delete.' }) filename: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(`Delete ${filename}?`, DeleteForm, { key: 'confirm_delete' });
    return answer.action === 'accept' && answer.content.confirm ? `Deleted ${filename}.` : `Kept ${filename}.`;
  }

  @Tool({ name: 'multi_input', description: 'Asks two questions at once. Runs as a task.', task: true })
  async multiInput(@Ctx() ctx: ToolContext) {
    const [first, second] = await Promise.all([ctx.elicit('First detail?', DetailForm, { key: 'first' }), ctx.elicit('Second detail?', DetailForm, { key: 'second' })]);
    return `Got ${first.action === 'accept' ? (first.content.name ?? '') : first.action} and ${second.action === 'accept' ? (second.content.name ?? '') : second.action}.`;
  }

  @Tool({
    name: 'test_tool_with_task',
    description: "Asks the user's name as a plain round trip, then works on as a task and greets them.",
    task: { mode: 'required', inputFirst: true },
  })
  async toolWithTask(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('What is your name?', DetailForm, { key: 'user_name' });
    await sleep(200, ctx.signal);
    return answer.action === 'accept' ? `Hello, ${answer.content.name ?? 'stranger'}, your task is done.` : `No name given (${answer.action}).`;
  }
}
