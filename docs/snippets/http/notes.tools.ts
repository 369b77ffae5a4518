import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';

// #region context
export class NoteTools {
  @Tool({ description: 'Save a note for the current caller.' })
  addNote(@Param('text') text: string, @Ctx() ctx: ToolContext) {
    const who = ctx.authInfo?.clientId ?? 'anonymous'; // set by bearer auth (HTTP) or the stdio provider
    const session = ctx.sessionId ?? 'none'; // the Mcp-Session-Id (stateful HTTP only)
    const agent = ctx.headers?.['user-agent']; // the HTTP request's headers, lower-cased
    return `Saved '${text}' for ${who} (session ${session}, ${agent ?? 'no user agent'}).`;
  }
}
// #endregion context

// #region polling
export class ExportTools {
  @Tool({ description: 'Export every note as a file. Takes a while.' })
  async exportNotes(@Ctx() ctx: ToolContext) {
    // Free the HTTP connection while the export runs; the client comes back for the result.
    ctx.closeStream();
    return await buildExport(ctx.signal);
  }
}
// #endregion polling

async function buildExport(signal: AbortSignal): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 10));
  signal.throwIfAborted();
  return 'notes.zip is ready';
}
