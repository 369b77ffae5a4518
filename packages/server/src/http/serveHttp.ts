import { ConfigError } from '@toolwright/core';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenerRelease, ServerFactory } from '../serving/ServerFactory';
import { DEFAULT_DRAIN_TIMEOUT_MS, drainWindow } from '../serving/drainWindow';
import type { HttpListenOptions } from './HttpListenOptions';
import { createHttpHandler, type HttpHandler } from './createHttpHandler';
import { isLoopbackAddress } from './hostPolicy';
import type { HttpListener } from './HttpListener';
import { requestLogLevelOf } from './requestLog';
import { endpointPathOf } from './endpointPathOf';
import { TIMER_MS, wholeNumberOption } from './wholeNumberOption';
import { failureLogger } from '../ground/failureLogger';
import { refuseUnknownOptions } from '@toolwright/core/internal';
import { HTTP_LISTENER_OPTION_NAMES } from './endpointOptionNames';
import { listenFailure } from './listenFailure';

/** Defaults of `HttpListenOptions.timeouts`; see the security guide. */
const DEFAULT_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, idleMs: 5_000 };
const DEFAULT_MAX_CONNECTIONS = 2048;
/** How often node looks for connections past the headers or request timeout. */
const CHECK_INTERVAL_MS = 1_000;

/**
 * `app.listen({ transport: 'http' })`: a node:http server on `host:port` (default
 * 127.0.0.1:3000) serving the MCP endpoint, health checks and auth metadata. On SIGINT or
 * SIGTERM it shuts down gracefully and exits 0.
 */
export async function serveHttp(app: ServerFactory, options: HttpListenOptions): Promise<HttpListener> {
  refuseUnknownOptions('serveHttp', options, HTTP_LISTENER_OPTION_NAMES, 'the options are on the Streamable HTTP page of the docs');
  return serveHttpHeld(app, options, undefined);
}

/**
 * `serveHttp` holding the app with `held`, the listener hold `app.listen` took before it started
 * the app (see `App.openListener`); without it, the hold is taken once the port is bound. The
 * hold is let go when the listener fails to begin (a refused option, a port in use).
 */
export async function serveHttpHeld(app: ServerFactory, options: HttpListenOptions, held: ListenerRelease | undefined): Promise<HttpListener> {
  try {
    return await serveHttpHolding(app, options, () => held ?? app.openListener());
  } catch (error) {
    await held?.();
    throw error;
  }
}

/** `serveHttp`; `hold` gives the app's listener hold once the port is bound. */
async function serveHttpHolding(app: ServerFactory, options: HttpListenOptions, hold: () => ListenerRelease): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') {
    throw new ConfigError(
      `Toolwright: the HTTP option host is ${JSON.stringify(host) ?? String(host)}, not a host name or address. Give one such as host: '127.0.0.1' (this machine only) or host: '0.0.0.0' (every interface), or leave it out for 127.0.0.1.`,
    );
  }
  const path = endpointPathOf(options.path); // checked before the port is taken, and printed as a URL spells it
  // Checked before the port is taken: node would refuse some of these with its own error, and take others (0, a fraction) as "no limit".
  const timeouts = {
    headersMs: wholeNumberOption('timeouts.headersMs', options.timeouts?.headersMs, { ...TIMER_MS, min: 1, byDefault: DEFAULT_TIMEOUTS.headersMs }),
    requestMs: wholeNumberOption('timeouts.requestMs', options.timeouts?.requestMs, { ...TIMER_MS, min: 1, byDefault: DEFAULT_TIMEOUTS.requestMs }),
    idleMs: wholeNumberOption('timeouts.idleMs', options.timeouts?.idleMs, { ...TIMER_MS, min: 1, byDefault: DEFAULT_TIMEOUTS.idleMs }),
  };
  const maxConnections = wholeNumberOption('maxConnections', options.maxConnections, { unit: 'connections', min: 1, unlimited: true, byDefault: DEFAULT_MAX_CONNECTIONS });
  // A port read from the environment as digits ('8080') is taken, as node takes it.
  const givenPort: unknown = options.port;
  const listenPort = wholeNumberOption('port', typeof givenPort === 'string' && /^\d{1,5}$/.test(givenPort) ? Number(givenPort) : givenPort, {
    unit: 'a port number',
    min: 0,
    max: 65535,
    byDefault: 3000,
  });
  wholeNumberOption('drainTimeoutMs', options.drainTimeoutMs, { ...TIMER_MS, min: 0, byDefault: DEFAULT_DRAIN_TIMEOUT_MS });
  const requestLogLevel = requestLogLevelOf(options); // checked before the port is taken
  let handler: HttpHandler | undefined;
  const server = createServer(
    // Node measures both from the request's start until its last byte arrives: neither cuts a response, so SSE streams last.
    { headersTimeout: timeouts.headersMs, requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs), connectionsCheckingInterval: CHECK_INTERVAL_MS },
    (req, res) => void (handler ? handler(req, res) : res.writeHead(503, { 'Retry-After': '1' }).end()),
  );
  server.keepAliveTimeout = timeouts.idleMs;
  server.maxConnections = maxConnections;

  // A refused listen (the port in use, a privileged port, a host not of this machine) is a ConfigError saying how to fix it. Nothing
  // is left behind it: node has closed the server's handle, this listener's hold is taken only below, and `serveHttpHeld` lets go of app.listen's.
  await new Promise<void>((resolve, reject) => {
    const refused = (error: unknown): void => reject(listenFailure(error, listenPort, host));
    server.once('error', refused);
    server.listen(listenPort, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const release = hold();
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}${path}`;
  // Built once the port is known (it differs from options.port when that is 0): auth.resource defaults to this URL.
  try {
    // The listener's own options stay here: the handler refuses a name it does not take.
    const { transport: _transport, port: _port, host: _host, drainTimeoutMs: _drain, maxConnections: _connections, exitOnSignal: _exit, ...handlerOptions } = options;
    handler = createHttpHandler(app, options.auth ? { ...handlerOptions, auth: { ...options.auth, resource: options.auth.resource ?? url } } : handlerOptions);
  } catch (error) {
    // A refused option (a ConfigError) leaves no port open behind it.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await release();
    throw error;
  }
  const mcp = handler;
  if (requestLogLevel === 'info' || requestLogLevel === 'debug') {
    const write = options.logWrite ?? ((line: string) => process.stderr.write(line));
    write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'listening', url, mode: options.stateless ? 'stateless' : 'stateful' })}\n`);
  }
  if (!isLoopbackAddress(host) && host !== 'localhost' && !options.allowedHosts && !options.auth && !app.oauth) {
    const warning = `listening on ${host}, beyond this machine, with no allowedHosts and no auth. Anyone who can reach port ${port} can call every tool. Set auth, and allowedHosts to your public name.`;
    if (app.logger) failureLogger(app.logger, 'http').warn(warning);
    else process.stderr.write(`toolwright http: ${warning}\n`);
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const drain = drainWindow("listen({ transport: 'http', drainTimeoutMs })", options.drainTimeoutMs);
      // Connections stay accepted while running calls drain: clients may still post answers to the server's requests (new requests get 503).
      await mcp.close({ drainTimeoutMs: drain.ms });
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
      // The app's work in flight outside the requests (a task's run) gets what is left of the same drain time.
      await release(drain.left());
    })());
  const onSignal = (): void => {
    void close().then(() => {
      if (options.exitOnSignal !== false) process.exit(0);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    url,
    port,
    host,
    close,
    get sessionCount() {
      return mcp.sessionCount;
    },
  };
}
