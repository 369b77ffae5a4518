/** A subscription the cluster refuses by its caps: the client gets its message as invalid params. */
export class SubscriptionRefusedError extends Error {
  readonly refused = true;
  constructor(message: string) {
    super(message);
    this.name = 'SubscriptionRefusedError';
  }
}
