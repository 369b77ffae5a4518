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
