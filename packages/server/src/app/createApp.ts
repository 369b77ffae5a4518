import { buildRegistry } from '@toolwright/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createToolBinding, registerToolHandlers } from '../sdk/registerToolHandlers';
import type { App, Listener } from './App';
import type { AppOptions } from './AppOptions';
import { InFlight } from './InFlight';
import type { ListenOptions } from './ListenOptions';
import { loadToolClasses } from './loadToolClasses';
import { assertSupportedNode } from './assertSupportedNode';
import { serveStdio } from '../stdio/serveStdio';
import { attachAuthInfo } from '../auth/attachAuthInfo';
import { lazyJsonSchemaValidator } from '../sdk/lazyJsonSchemaValidator';
import { Surface } from '../surface/Surface';
import type { ListControl } from '../surface/ListControl';
import type { ListKind } from '../surface/Catalog';

/**
 * Builds an app: loads the tool classes, derives and checks every schema once (throwing a
 * `BuildError` that lists all problems), and returns an `App` ready to serve.
 */
export async function createApp(options: AppOptions): Promise<App> {
  assertSupportedNode();
  const tools = await loadToolClasses(options.tools, options.cwd ?? process.cwd());
  const registry = buildRegistry({ tools, container: options.container, coerce: options.coerce, logger: options.logger });
  const inFlight = new InFlight();
  const surface = new Surface(registry, {
    pageSize: options.pageSize,
    logLevel: options.logLevel,
    listChangedDebounceMs: options.listChangedDebounceMs,
    toolTimeoutMs: options.toolTimeoutMs,
    logger: options.logger,
  });
  const binding = createToolBinding(registry, inFlight, surface);
  const control = (kind: ListKind): ListControl =>
    Object.freeze({
      enable: (key: string) => surface.catalog.setEnabled(kind, key, true),
      disable: (key: string) => surface.catalog.setEnabled(kind, key, false),
      remove: (key: string) => surface.catalog.remove(kind, key),
    });
  const info = stripUndefined({
    name: options.name,
    version: options.version,
    title: options.title,
    description: options.description,
    websiteUrl: options.websiteUrl,
    icons: options.icons,
  });
  const serverOptions = stripUndefined({ instructions: options.instructions });

  const app: App = {
    name: options.name,
    version: options.version,
    registry,
    createServer() {
      // Capabilities follow what the app serves when the connection opens (lists can grow at runtime).
      const capabilities = surface.capabilities();
      const server = new Server(info, { ...serverOptions, capabilities, jsonSchemaValidator: lazyJsonSchemaValidator() });
      const connection = surface.attach(server, capabilities);
      registerToolHandlers(server, binding, connection);
      return server;
    },
    async connect(transport: Transport) {
      const server = app.createServer();
      await server.connect(transport);
      return server;
    },
    // The overloads on App.listen give HTTP callers the HttpListener that serveHttp returns.
    listen: (async (listen: ListenOptions): Promise<Listener> => {
      switch (listen.transport) {
        case 'stdio': {
          const authInfo = await listen.authInfo?.();
          if (!authInfo) return serveStdio(app, listen);
          // The stdio caller's identity is fixed for the connection: stamp it on every message.
          const connect = async (transport: Transport) => {
            const server = await app.connect(transport);
            attachAuthInfo(transport, authInfo);
            return server;
          };
          return serveStdio(Object.create(app, { connect: { value: connect } }) as App, listen);
        }
        case 'http':
          // Loaded on first use: the HTTP stack (the SDK transport, hono) costs stdio servers startup time and memory.
          return (require('../http/serveHttp') as typeof import('../http/serveHttp')).serveHttp(app, listen);
        default:
          throw new Error(`Toolwright: unknown transport '${(listen as { transport: string }).transport}'. Use 'stdio' or 'http'.`);
      }
    }) as App['listen'],
    tools: control('tools'),
    resources: control('resources'),
    prompts: control('prompts'),
    toolAccess: (name: string) => surface.catalog.tool(name)?.access,
    async add(...classes) {
      const more = await loadToolClasses(classes, options.cwd ?? process.cwd());
      surface.add({ tools: more, container: options.container, coerce: options.coerce, logger: options.logger });
    },
    notifyResourceUpdated: (uri: string) => surface.connections.resourceUpdated(uri),
    get inFlight() {
      return inFlight.count;
    },
    drain: (timeoutMs = 10_000) => inFlight.drain(timeoutMs),
  };
  return Object.freeze(app);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
