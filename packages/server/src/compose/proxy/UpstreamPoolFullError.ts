import { ToolwrightError } from '@toolwright/core';

/** A call needed a new upstream session while `maxSessions` of them were open or being opened. */
export class UpstreamPoolFullError extends ToolwrightError {
  constructor(
    label: string,
    /** `maxSessions`: how many upstream sessions the proxy keeps at most. */
    readonly limit: number,
  ) {
    super(`${label} already has ${limit} sessions open or opening, the proxy's maxSessions; try again once a client has closed, or raise maxSessions`);
  }
}
