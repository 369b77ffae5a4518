import type { Connection } from '../pipeline/Connection';

/**
 * Serves `logging/setLevel` for this connection. It replaces the SDK's own handler, whose
 * level only filters `sendLoggingMessage` (which over HTTP goes to the standalone stream);
 * Toolwright sends logs on the request's own stream and filters them here.
 */
export function registerLoggingHandler(connection: Connection): void {
  connection.server.setRequestHandler('logging/setLevel', (request) => {
    connection.logLevel = request.params.level;
    return {};
  });
}
