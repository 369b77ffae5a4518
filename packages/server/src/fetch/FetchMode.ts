import type { AuthInfo } from '@toolwright/core';

/** Serves the 2025-era requests of the fetch handler in one mode (stateless, or sessions). */
export interface FetchMode {
  /** Answers a request that passed every rule of the endpoint; `body` is the parsed POST body (undefined for GET and DELETE). */
  handle(request: Request, body: unknown, auth: AuthInfo | undefined): Promise<Response>;
  /** Ends the questions that the malformed answers of a POST refused as invalid answer, in the session it names (sessions only; see `SessionPool.failQuestions`). */
  failQuestions?(request: Request, body: unknown, auth: AuthInfo | undefined): Promise<void>;
  /**
   * Answers every call still running with a -32000 error giving `reason` (in its JSON answer, or
   * as the last event of its stream) and stops its run: shutdown's drain timeout passed.
   */
  abandon(reason: string): Promise<void>;
  /** Live sessions (0 when stateless). */
  readonly sessionCount: number;
  /** Ends everything the mode holds (sessions and their streams). */
  close(): Promise<void>;
}
