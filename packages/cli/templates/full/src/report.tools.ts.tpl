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
    description: 'Build the report of overdue loans for one branch. Asks whether to include member contacts, then takes a while: it scans every shelf, reporting progress.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    task: true,
  })
  async overdueReport(@Param('branch', { enum: BRANCHES, description: 'The branch to scan' }) branch: string, @Ctx() ctx: ToolContext): Promise<string> {
    // Asked first: once answered, the method runs again from the top with the answer (as any
    // round trip does), so the slow part below runs once, after the question.
    const answer = await ctx.elicit(`Include the members' contacts in the overdue report for ${branch}?`, ReportOptions);
    const contacts = answer.action === 'accept' && answer.content.includeContacts;
    const { shelves } = this.scanner;
    let overdue = 0;
    for (const [done, shelf] of shelves.entries()) {
      overdue += await this.scanner.overdueOn(shelf, ctx.signal);
      await ctx.progress(done + 1, shelves.length, `Scanned shelf ${shelf} of ${branch} (${done + 1} of ${shelves.length})`);
    }
    return `Overdue report for ${branch}: ${overdue} loans overdue on ${shelves.length} shelves${contacts ? ', with member contacts' : ''}.`;
  }
}
