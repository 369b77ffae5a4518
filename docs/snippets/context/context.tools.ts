import { Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { IsIn, IsInt, Min } from '@toolwright/core/dto';

// #region progress
export class ImportTools {
  @Tool({ description: 'Import every file of a folder.' })
  async importFolder(@Param('files', { type: () => [String] }) files: string[], @Ctx() ctx: ToolContext) {
    ctx.log.info('import started', { count: files.length });
    for (let i = 0; i < files.length; i++) {
      if (ctx.signal.aborted) return `cancelled after ${i} files`;
      await ctx.progress(i + 1, files.length, `imported ${files[i]}`);
    }
    return `imported ${files.length} files`;
  }
  // #endregion progress

  // #region timeout
  @Tool({ description: 'Search the slow archive.', timeoutMs: 5_000 })
  async searchArchive(@Param('query') query: string, @Ctx() ctx: ToolContext) {
    const res = await fetch(`https://archive.example.com/?q=${encodeURIComponent(query)}`, { signal: ctx.signal });
    return res.text();
  }
  // #endregion timeout
}

// #region elicit
export class Booking {
  @IsIn(['economy', 'business']) cabin!: string;
  @IsInt() @Min(1) seats!: number;
}

export class BookingTools {
  @Tool({ description: 'Book a flight, asking the user for the details.' })
  async bookFlight(@Param('to') to: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(`How do you want to fly to ${to}?`, Booking);
    if (answer.action !== 'accept') return `Booking ${answer.action}ed.`;
    return `Booked ${answer.content.seats} ${answer.content.cabin} seat(s) to ${to}.`;
  }
  // #endregion elicit

  // #region sample
  @Tool({ description: 'Summarize a text with the client model.' })
  async summarize(@Param('text') text: string, @Ctx() ctx: ToolContext) {
    const reply = await ctx.sample(`Summarize in one sentence:\n\n${text}`, { maxTokens: 200 });
    if (reply.content.type !== 'text') throw new ToolError('The model did not answer with text.');
    return reply.content.text;
  }

  @Tool({ description: "List the client's project folders." })
  async folders(@Ctx() ctx: ToolContext) {
    return (await ctx.listRoots()).map((root) => root.uri);
  }
  // #endregion sample
}
