import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app/App';
import type { HttpListenOptions } from '../app/ListenOptions';
import { createHttpHandler } from './createHttpHandler';
import { isLoopbackAddress } from './hostPolicy';
import type { HttpListener } from './HttpListener';

/**
 * `app.listen({ transport: 'http' })`: a node:http server on `host:port` (default
 * 127.0.0.1:3000) serving the MCP endpoint, health checks and auth metadata. On SIGINT or
 * SIGTERM it shuts down gracefully and exits 0.
 */
export async function serveHttp(app: App, options: HttpListenOptions): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const handler = createHttpHandler(app, options);
  const server = createServer({ requestTimeout: 0 }, (req, res) => void handler(req, res));
  // Clients keep connections open between calls; answer them promptly on shutdown.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}${path}`;
  if ((options.logLevel ?? 'info') === 'info' || options.logLevel === 'debug') {
    const write = options.logWrite ?? ((line: string) => process.stderr.write(line));
    write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'listening', url, mode: options.stateless ? 'stateless' : 'stateful' })}\n`);
  }
  if (!isLoopbackAddress(host) && host !== 'localhost' && !options.allowedHosts && !options.auth) {
    process.stderr.write(
      `toolwright http: listening on ${host}, beyond this machine, with no allowedHosts and no auth. Anyone who can reach port ${port} can call every tool. Set auth, and allowedHosts to your public name.\n`,
    );
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await handler.close({ drainTimeoutMs: options.drainTimeoutMs });
      server.closeAllConnections();
      await stopped;
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
      return handler.sessionCount;
    },
  };
}
