import { type ContainerLike, type ToolLogger } from '@toolwright/core';
import { ServiceScope } from '@toolwright/core/internal';
import type { Connection } from './Connection';
import type { OpenCallContainer } from './PipelineEnv';

/**
 * Opens one request's container: a `ServiceScope` for its request-lifetime services, inside
 * the connection's session scope on a 2025-era connection (a stdio process, an HTTP session),
 * which lives until the connection closes. A 2026-07-28 request has no session: its
 * session-lifetime services live for the request. `context` is read when a class takes
 * `@FromCall('context')` (a call's guards may open the container before its context exists).
 * Released when the call has answered.
 */
export function createOpenCallContainer(parent: ContainerLike, logger: ToolLogger): OpenCallContainer {
  return (access, connection, context) => {
    const session = connection.era === 'legacy' ? sessionScopeOf(connection, parent, logger, access.sessionId) : undefined;
    const request = new ServiceScope({
      lifetime: 'request',
      parent,
      session,
      // The request's own classes too: a @Scoped('request') class is built here, not in the session scope.
      overrides: connection.overrides,
      values: {
        get context() {
          return context();
        },
        caller: access.authInfo,
        session: { id: access.sessionId, era: access.era },
      },
      logger,
    });
    return { container: request, release: () => void request.dispose() };
  };
}

function sessionScopeOf(connection: Connection, parent: ContainerLike, logger: ToolLogger, sessionId: string | undefined): ServiceScope {
  connection.sessionScope ??= new ServiceScope({ lifetime: 'session', parent, overrides: connection.overrides, values: { session: { id: sessionId, era: connection.era } }, logger });
  return connection.sessionScope;
}
