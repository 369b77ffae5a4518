import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAuthOptions } from './HttpAuthOptions';

/**
 * An authorization server served beside an app's MCP endpoint (`createApp({ oauth })`), such as
 * `createOAuthServer` from `@toolwright/oauth`: every listener of the app (`app.listen`,
 * `app.fetch`, `createHttpHandler`, `createFetchHandler` and the framework adapters) answers its
 * paths before the endpoint's, and the endpoint takes its tokens (`auth`) unless given its own.
 */
export interface AuthorizationServerMount {
  /** The MCP endpoint's `auth` when the listener is given none: its tokens, its RFC 9728 metadata. */
  readonly auth: HttpAuthOptions;
  /** The paths it answers (metadata, authorize, token, register, revoke, keys, callback). */
  readonly paths: readonly string[];
  /** Answers a web-standard request for one of `paths`. */
  handle(request: Request): Promise<Response | undefined>;
  /** Answers a node request for one of `paths`. */
  handleNode(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
