import type { ToolContext } from '@toolwright/core';
import type { Connection } from './Connection';

/** The connection each call context was made on, for sources that keep state per downstream connection (a proxy's upstream sessions). */
const owners = new WeakMap<ToolContext, Connection>();

export function bindContextConnection(ctx: ToolContext, connection: Connection): void {
  owners.set(ctx, connection);
}

/** The connection `ctx` was made on; undefined for a context made elsewhere (a test's). */
export function connectionOfContext(ctx: ToolContext): Connection | undefined {
  return owners.get(ctx);
}
