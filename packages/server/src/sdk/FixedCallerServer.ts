import type { AuthInfo } from '@toolwright/core';
import { Server, type Transport } from '@modelcontextprotocol/server';
import { attachAuthInfo } from '../auth/attachAuthInfo';

/**
 * A `Server` whose every request comes from one known caller (stdio: the identity the
 * process that started the server vouches for), whichever entry connects it.
 */
export class FixedCallerServer extends Server {
  constructor(
    private readonly caller: AuthInfo,
    ...args: ConstructorParameters<typeof Server>
  ) {
    super(...args);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    attachAuthInfo(transport, this.caller);
  }
}
