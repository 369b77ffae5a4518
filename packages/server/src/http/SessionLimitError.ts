import { ToolwrightError } from '@toolwright/core';

/**
 * No room for one more session: the endpoint (or the cluster) already holds `maxSessions`.
 * The caller gets 503 with Retry-After; no other caller's session is closed to make room.
 */
export class SessionLimitError extends ToolwrightError {
  constructor(readonly maxSessions: number) {
    super(`Service unavailable: this server already holds its maximum of ${maxSessions} live sessions (sessions.maxSessions). Retry later, or end sessions you no longer use with DELETE.`);
  }
}
