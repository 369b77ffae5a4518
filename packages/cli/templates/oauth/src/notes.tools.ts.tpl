import { Ctx, Param, RequireScopes, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';
import { NoteService, type Note } from './notes.service';

/** The signed-in user (the access token's subject); `local` over stdio, which has no sign-in. */
function userOf(ctx: ToolContext): string {
  const sub = (ctx.authInfo?.extra as { sub?: unknown } | undefined)?.sub;
  return typeof sub === 'string' ? sub : 'local';
}

@Service()
export class NotesTools {
  constructor(private readonly notes: NoteService) {}

  @Tool({ description: 'Who is signed in: the user, the client and the scopes granted to it.', annotations: { readOnlyHint: true } })
  whoami(@Ctx() ctx: ToolContext): { user: string; client?: string; scopes: readonly string[] } {
    return { user: userOf(ctx), client: ctx.authInfo?.clientId, scopes: ctx.authInfo?.scopes ?? [] };
  }

  @RequireScopes('notes:read')
  @Tool({ description: "List the signed-in user's notes.", annotations: { readOnlyHint: true } })
  listNotes(@Ctx() ctx: ToolContext): { notes: readonly Note[] } {
    return { notes: this.notes.of(userOf(ctx)) };
  }

  @RequireScopes('notes:write')
  @Tool({ description: 'Add a note for the signed-in user. Use when they ask to remember something.' })
  addNote(@Param('text', { description: "The note, e.g. 'Call Ada on Monday'", minLength: 1, maxLength: 500 }) text: string, @Ctx() ctx: ToolContext): Note {
    if (text.trim() === '') throw new ToolError('The note is blank: pass what to remember.');
    return this.notes.add(userOf(ctx), text.trim());
  }
}
