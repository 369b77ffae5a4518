import type { LogLevel } from '@toolwright/core';
import type { Server } from './sdk';

/** What Toolwright keeps for one connection (one SDK `Server`: a stdio process, an HTTP session). */
export interface Connection {
  readonly server: Server;
  /** The lowest level sent to this client; `logging/setLevel` changes it. */
  logLevel: LogLevel;
  /** URIs this client subscribed to (`resources/subscribe`). */
  readonly subscriptions: Set<string>;
}
