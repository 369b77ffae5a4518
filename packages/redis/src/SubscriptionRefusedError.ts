import { ToolwrightError } from '@toolwright/core';

/** A subscription the cluster refuses by its caps: the client gets its message as invalid params. */
export class SubscriptionRefusedError extends ToolwrightError {
  readonly refused = true;
}
