import type { Transport } from '../sdk/sdk';

/** A transport that carries nothing: a server connected to it only starts and closes. */
export class NowhereTransport implements Transport {
  onclose?: () => void;
  async start(): Promise<void> {}
  async send(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
}
