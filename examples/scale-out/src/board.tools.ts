import { Ctx, Param, Resource, Tool, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';

/** Tells every client subscribed to a resource that it changed, on whichever instance they are. Wired to the app in app.ts. */
@Service()
export class Announcer {
  notify: (uri: string) => void = () => {};
}

@Service()
export class BoardTools {
  constructor(private readonly announcer: Announcer) {}

  @Tool({ description: 'Which instance served this call.', annotations: { readOnlyHint: true } })
  whoami() {
    return process.env.INSTANCE ?? `pid ${process.pid}`;
  }

  @Tool({ description: "Adds a note to this session's notes and returns them all. Any instance sees them." })
  async note(@Param('text', { minLength: 1 }) text: string, @Ctx() ctx: ToolContext) {
    const notes = (await ctx.session?.get<string[]>('notes')) ?? [];
    notes.push(text);
    await ctx.session?.set('notes', notes);
    return { notes, servedBy: this.whoami() };
  }

  @Tool({ description: 'Reports progress while it works, then answers.' })
  async work(@Param('steps', { integer: true, minimum: 1, maximum: 20 }) steps: number, @Ctx() ctx: ToolContext) {
    for (let i = 1; i <= steps; i++) {
      await new Promise((r) => setTimeout(r, 10));
      await ctx.progress(i, steps);
    }
    return `worked ${steps} steps on ${this.whoami()}`;
  }

  @Tool({ description: 'Asks the user to confirm (elicitation); the answer may come back through another instance.' })
  async confirm(@Param('question') question: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(question, { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
    return answer.action === 'accept' && answer.content.ok === true ? 'confirmed' : 'not confirmed';
  }

  @Tool({ description: 'Announces that the board changed: subscribers of board://status hear of it, whichever instance they use.' })
  announce() {
    this.announcer.notify('board://status');
    return 'announced';
  }

  @Resource('board://status', { description: 'The board status.', mimeType: 'text/plain' })
  status() {
    return 'green';
  }
}
