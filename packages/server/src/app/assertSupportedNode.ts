import { ConfigError } from '@toolwright/core';

/** `engines.node` of every Toolwright package (the CLI's tests keep them equal). */
const SUPPORTED = '^20.19.0 || ^22.12.0 || >=24';

/**
 * Refuses to start on a Node.js outside the supported range, with a message that says which
 * versions work; the generated `server.ts` prints it without a stack and exits 1.
 */
export function assertSupportedNode(version: string | undefined = nodeVersion()): void {
  if (version === undefined) return;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major >= 24 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
  if (!supported)
    throw new ConfigError(
      `Toolwright cannot start this server: it needs Node.js ${SUPPORTED}, and this is Node.js ${version}. Start it with the current LTS release of Node.js (for example after 'nvm install --lts') or another supported version.`,
    );
}

/**
 * The Node.js version this runs on; undefined on Cloudflare's workerd, which is not Node.js (it
 * says so in `navigator.userAgent`). There the first read of `process` builds node's process
 * module: about a twentieth of a Worker's cold start, which nothing else in its start needs.
 */
function nodeVersion(): string | undefined {
  if ((globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers') return undefined;
  return process.versions.node;
}
