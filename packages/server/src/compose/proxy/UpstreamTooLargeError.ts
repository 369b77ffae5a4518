import { ToolwrightError } from '@toolwright/core';

/** The most bytes the proxy reads in one upstream message unless `maxMessageBytes` says otherwise: the SDK's stdio client's own limit. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** The upstream sent a message larger than `maxMessageBytes`; the proxy ended that connection. */
export class UpstreamTooLargeError extends ToolwrightError {
  constructor(readonly limit: number) {
    super(`the upstream sent a message larger than ${limit} bytes (maxMessageBytes)`);
  }
}
