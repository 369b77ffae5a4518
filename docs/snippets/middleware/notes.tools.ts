import { Service } from 'typedi';
import { Param, Tool, ToolError, UseGuards, UseMiddleware, type MemberAccess, type MemberCall, type Next } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { cache, maxResultSize, normalizeErrors, rateLimit, timing } from '@toolwright/server/middleware';

// #region function
/** Logs who called what, and how long it took. */
export async function audit(call: MemberCall, next: Next) {
  const started = Date.now();
  try {
    return await next();
  } finally {
    call.logger.info(`${call.authInfo?.clientId ?? 'anonymous'} called ${call.kind} '${call.name}' (${Date.now() - started} ms)`, call.args);
  }
}
// #endregion function

// #region class
@Service()
export class Quota {
  private readonly used = new Map<string, number>();
  take(caller: string): boolean {
    const n = (this.used.get(caller) ?? 0) + 1;
    this.used.set(caller, n);
    return n <= 100;
  }
}

/** A class middleware: the container builds it, so it gets services injected. */
@Service()
export class QuotaMiddleware {
  constructor(private readonly quota: Quota) {}

  use(call: MemberCall, next: Next) {
    if (!this.quota.take(call.authInfo?.clientId ?? 'anonymous')) throw new ToolError('Daily quota used up. Try again tomorrow.');
    return next();
  }
}
// #endregion class

// #region guard
/** A guard decides on who asks, never on arguments: refused members are hidden and refused. */
export const editorsOnly = (access: MemberAccess) => access.authInfo?.scopes.includes('notes:write') ?? false;
// #endregion guard

// #region members
@UseMiddleware(QuotaMiddleware)
export class NoteTools {
  private readonly notes = new Map<string, string>([['welcome', 'Hello!']]);

  @UseMiddleware(cache({ ttlMs: 30_000 }))
  @Tool({ description: 'Read a note by id.', annotations: { readOnlyHint: true } })
  readNote(@Param('id') id: string) {
    const text = this.notes.get(id);
    if (text === undefined) throw new ToolError(`No note '${id}'. Call list_notes to see the ids.`);
    return text;
  }

  @Tool({ description: 'List the note ids.', annotations: { readOnlyHint: true } })
  listNotes() {
    return [...this.notes.keys()];
  }

  @UseGuards(editorsOnly)
  @UseMiddleware(rateLimit({ capacity: 5, refillPerSecond: 1 }))
  @Tool({ description: 'Write a note.' })
  writeNote(@Param('id') id: string, @Param('text') text: string) {
    this.notes.set(id, text);
    return `Saved '${id}'.`;
  }
}
// #endregion members

// #region app
export function createNotesApp() {
  return createApp({
    name: 'notes',
    version: '1.0.0',
    tools: [NoteTools],
    // Outermost first: timing sees every call as a result, since normalizeErrors turns throws into results.
    middleware: [timing(), normalizeErrors(), maxResultSize({ bytes: 512 * 1024 }), audit],
  });
}
// #endregion app
