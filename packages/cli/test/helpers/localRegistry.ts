import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';

/** A package this registry publishes: its package.json and the tarball `npm pack` made of it. */
export interface LocalPackage {
  manifest: { name: string; version: string } & Record<string, unknown>;
  tarball: string;
}

export interface LocalRegistry {
  /** The registry's URL, for `npm_config_registry`. */
  url: string;
  /** Every request, in order: `local <path>` for ours, `upstream <path>` for forwarded ones. */
  log: string[];
  close(): Promise<void>;
}

/**
 * An npm registry on 127.0.0.1 that publishes `packages` (each at its one version, tagged
 * `latest`) and forwards every other request to `upstream`, so an install resolves our
 * unpublished packages from here and the rest of the world from the real registry.
 * npm rewrites the upstream tarball URLs to this registry's host (`replace-registry-host`
 * defaults to `npmjs`), so their tarballs are forwarded too.
 */
export async function startLocalRegistry(packages: readonly LocalPackage[], upstream = 'https://registry.npmjs.org'): Promise<LocalRegistry> {
  const log: string[] = [];
  const tarballs = new Map<string, Buffer>(); // '/<name>/-/<file>' -> bytes
  const packuments = new Map<string, LocalPackage & { bytes: Buffer }>(); // name -> package
  for (const pkg of packages) packuments.set(pkg.manifest.name, { ...pkg, bytes: readFileSync(pkg.tarball) });
  let url = '';

  const packument = (pkg: LocalPackage & { bytes: Buffer }) => {
    const { name, version } = pkg.manifest;
    const path = `/${name}/-/${basename(pkg.tarball)}`;
    tarballs.set(path, pkg.bytes);
    const dist = {
      tarball: `${url}${path}`,
      shasum: createHash('sha1').update(pkg.bytes).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(pkg.bytes).digest('base64')}`,
    };
    const now = new Date().toISOString();
    return { name, 'dist-tags': { latest: version }, versions: { [version]: { ...pkg.manifest, _id: `${name}@${version}`, dist } }, time: { created: now, modified: now, [version]: now } };
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers, host: new URL(upstream).host };
    const out = request(`${upstream}${req.url}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`upstream ${upstream}: ${error.message}`);
    });
    req.pipe(out);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const name = decodeURIComponent(path.slice(1));
    const pkg = req.method === 'GET' ? packuments.get(name) : undefined;
    if (pkg) {
      log.push(`local ${path}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(packument(pkg)));
    } else if (req.method === 'GET' && tarballs.has(path)) {
      log.push(`local ${path}`);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(tarballs.get(path));
    } else {
      log.push(`upstream ${path}`);
      forward(req, res);
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Register the tarball paths now, so a tarball fetched before its packument is found.
  for (const pkg of packuments.values()) packument(pkg);
  return {
    url,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
