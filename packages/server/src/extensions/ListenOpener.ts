import type { AuthInfo, ToolLogger } from '@toolwright/core';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import type { Extension } from './Extension';
import { sentAsIs } from './sentAsIs';

/** An extension's part of one `subscriptions/listen` stream, opened. */
export interface OpenedListen {
  /** What the extensions agreed to send, merged into the acknowledgement's `notifications`. */
  readonly honored: Readonly<Record<string, unknown>>;
  close(): void;
}

/** Opens the extensions' parts of one `subscriptions/listen` stream (the filter keys they serve). */
export type ListenOpener = (
  filter: Readonly<Record<string, unknown>>,
  request: { readonly authInfo: AuthInfo | undefined; readonly meta: Readonly<Record<string, unknown>> | undefined; readonly notify: (method: string, params: Record<string, unknown>) => void },
) => Promise<OpenedListen> | undefined;

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const openers = new WeakMap<object, ListenOpener>();

/** Records what the extensions of the app behind `server` serve on `subscriptions/listen` (called as the server is wired). */
export function recordListenOpener(server: object, opener: ListenOpener): void {
  openers.set(server, opener);
}

/** The listen opener of the app behind `server`, if its extensions serve any filter key. */
export function listenOpenerOf(server: object): ListenOpener | undefined {
  return openers.get(server);
}

/**
 * The opener for `extensions`: each one whose keys the filter names opens its part; undefined when
 * the filter names none. An error a part throws that is not sent as is goes to `logger`.
 */
export function listenOpenerFor(extensions: readonly Extension[], logger: ToolLogger): ListenOpener | undefined {
  const listening = extensions.filter((e) => e.listen && e.listen.keys.length > 0);
  if (listening.length === 0) return undefined;
  return (filter, request) => {
    const named = listening.filter((e) => e.listen!.keys.some((key) => Object.hasOwn(filter, key)));
    if (named.length === 0) return undefined;
    return (async () => {
      const opened: OpenedListen[] = [];
      let opening: Extension | undefined;
      try {
        for (const extension of named) {
          opening = extension;
          const own = Object.create(null) as Record<string, unknown>;
          for (const key of extension.listen!.keys) if (Object.hasOwn(filter, key)) own[key] = filter[key];
          opened.push(
            await extension.listen!.open(own, {
              extension: extension.id,
              authInfo: request.authInfo,
              clientExtension: (id = extension.id) => declaredExtension(request.meta, id),
              notify: request.notify,
            }),
          );
        }
      } catch (error) {
        for (const o of opened) o.close();
        if (sentAsIs(error)) throw error;
        logger.error(`extension '${opening!.id}': listen.open threw; the client got -32603`, error);
        throw new ProtocolError(ErrorCodes.InternalError, 'Internal error');
      }
      return {
        honored: Object.assign({}, ...opened.map((o) => o.honored)) as Record<string, unknown>,
        close: () => opened.forEach((o) => o.close()),
      };
    })();
  };
}

/** The settings a request's `_meta` declares for extension `id` (2026-07-28 per-request capabilities), or undefined. */
function declaredExtension(meta: Readonly<Record<string, unknown>> | undefined, id: string): Readonly<Record<string, unknown>> | undefined {
  const capabilities = meta?.[CLIENT_CAPABILITIES];
  if (typeof capabilities !== 'object' || capabilities === null) return undefined;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  if (typeof extensions !== 'object' || extensions === null || !Object.hasOwn(extensions, id)) return undefined;
  const settings = (extensions as Record<string, unknown>)[id];
  return typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>) : undefined;
}
