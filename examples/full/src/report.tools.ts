import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';
import { BRANCHES, ReportOptions } from './library.dto';
import { ShelfScanner } from './shelf-scanner.service';

/**
 * A long-running tool. `task: true`: a client that declared the tasks extension (2026-07-28)
 * gets a task handle at once and polls it; the method is written as for a plain call, and runs
 * as one for every other client. Its progress becomes the task's status message, its question
 * the task's input request, and `tasks/cancel` aborts `ctx.signal`.
 */
@Service()
export class ReportTools {
  constructor(private readonly scanner: ShelfScanner) {}

  @Tool({
    description: 'Build the report of overdue loans for one branch. Takes a while: it scans every shelf, reporting progress, and asks whether to include member contacts.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    task: true,
  })
  async overdueReport(@Param('branch', { enum: BRANCHES, description: 'The branch to scan' }) branch: string, @Ctx() ctx: ToolContext): Promise<string> {
    const { shelves } = this.scanner;
    let overdue = 0;
    for (const [done, shelf] of shelves.entries()) {
      overdue += await this.scanner.overdueOn(shelf, ctx.signal);
      await ctx.progress(done + 1, shelves.length, `Scanned shelf ${shelf} of ${branch} (${done + 1} of ${shelves.length})`);
    }
    const answer = await ctx.elicit(`${overdue} overdue loans at ${branch}. Include the members' contacts in the report?`, ReportOptions);
    const contacts = answer.action === 'accept' && answer.content.includeContacts;
    return `Overdue report for ${branch}: ${overdue} loans overdue on ${shelves.length} shelves${contacts ? ', with member contacts' : ''}.`;
  }
}
