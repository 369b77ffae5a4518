import { ConfigError } from '@toolwright/core';
import type { AuthInfo } from '@toolwright/core';
import type { Transport } from './sdk';

/**
 * Makes every message a connected transport delivers carry `authInfo`, so handlers see
 * the same `extra.authInfo` over stdio as over authenticated HTTP. Call after `connect`.
 */
export function attachAuthInfo(transport: Transport, authInfo: AuthInfo): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new ConfigError('Toolwright: attachAuthInfo needs a connected transport (call it after server.connect).');
  transport.onmessage = (message, extra) => deliver(message, { ...extra, authInfo });
}
