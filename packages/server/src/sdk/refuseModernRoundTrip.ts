import { ToolError } from '@toolwright/core';

/**
 * The hook point for client round trips (`ctx.elicit`, `ctx.elicitUrl`, `ctx.sample`,
 * `ctx.listRoots`) on a 2026-07-28 request, where they become an `input_required` result
 * with an integrity-protected `requestState` instead of a server-to-client request. Until
 * that is served, the tool gets a clear error it can report (an `isError` result).
 */
export function refuseModernRoundTrip(toolName: string, what: string): never {
  throw new ToolError(
    `'${toolName}' needs ${what}, which on a 2026-07-28 request is a multi round-trip request (input_required); this server does not have the round-trip support for that yet. Use a 2025-era client session, or let the tool work without it.`,
  );
}
