/**
 * The exact versions a generated project pins. The Toolwright packages move together (lerna
 * fixed mode) at this CLI's version; the rest are the versions this repo is built and tested
 * with (a test compares them with the workspace's installed packages, so they cannot drift).
 */
export const DEPENDENCY_VERSIONS = {
  '@modelcontextprotocol/server': '2.4.0',
  'class-transformer': '0.5.1',
  'class-validator': '0.15.1',
  'reflect-metadata': '0.2.2',
  typedi: '0.10.0',
} as const;

export const DEV_DEPENDENCY_VERSIONS = {
  // The test kit's client, in both eras (`createTestClient`): tests only, so a dev dependency.
  '@modelcontextprotocol/client': '2.4.0',
  '@types/jest': '30.0.0',
  '@types/node': '20.19.43',
  // `npm run lint`: @toolwright/eslint-plugin's recommended config, type-aware.
  eslint: '10.16.0',
  jest: '30.5.2',
  'ts-jest': '29.4.15',
  typescript: '5.9.3',
  'typescript-eslint': '8.74.0',
} as const;

/** The edge template's build and local runtime: esbuild bundles tsc's output; Miniflare runs it on workerd. */
export const EDGE_VERSIONS = {
  esbuild: '0.28.2',
  miniflare: '4.20260730.0',
} as const;

/** The express template's framework. */
export const EXPRESS_VERSIONS = {
  dependencies: { express: '5.3.0' },
  devDependencies: { '@types/express': '5.0.6' },
} as const;

/**
 * The nest template's framework (Nest 11 on its Express platform). Not Nest 12: it is ES modules only,
 * and the project's jest loads those only on Node 24.9+ with --experimental-vm-modules.
 */
export const NEST_VERSIONS = {
  '@nestjs/common': '11.2.10',
  '@nestjs/core': '11.2.10',
  '@nestjs/platform-express': '11.2.10',
  rxjs: '7.8.2',
} as const;

/** The next template's framework: Next.js (App Router) and the React it renders with. */
export const NEXT_VERSIONS = {
  dependencies: { next: '16.5.0', react: '19.3.1', 'react-dom': '19.3.1' },
  // Next's build type-checks with TypeScript and asks for React's types.
  devDependencies: { '@types/react': '19.3.3' },
} as const;

/**
 * npm 11's `allowScripts` for a generated project: every dependency with an install script,
 * and whether it may run (a test checks the list against an installed project's lockfile).
 */
export const INSTALL_SCRIPTS = { '@parcel/watcher': false } as const;

/** The Toolwright packages every project depends on (`@toolwright/cli` and `@toolwright/eslint-plugin` as dev dependencies). */
export const TOOLWRIGHT_PACKAGES = ['@toolwright/core', '@toolwright/server', '@toolwright/cli', '@toolwright/eslint-plugin'] as const;

/** The framework adapters and the OAuth server, which only their templates depend on. */
export const ADAPTER_PACKAGES = ['@toolwright/express', '@toolwright/fastify', '@toolwright/nestjs', '@toolwright/next', '@toolwright/oauth'] as const;
export type ToolwrightPackage = (typeof TOOLWRIGHT_PACKAGES)[number] | (typeof ADAPTER_PACKAGES)[number];

/**
 * The Toolwright packages an adapter depends on (a test compares them with the adapters'
 * package.json). A project on tarballs of a checkout lists them too: npm would look for
 * `@toolwright/express@0.1.0` on the registry otherwise. From the registry, npm installs them itself.
 */
export const ADAPTER_DEPENDENCIES: Readonly<Partial<Record<ToolwrightPackage, readonly ToolwrightPackage[]>>> = {
  // @toolwright/fastify is an optional peer (the Fastify platform only): the nest template runs on Express.
  '@toolwright/nestjs': ['@toolwright/express'],
};

/**
 * The `mcp-remote` bridge Claude Desktop's config runs for an HTTP server (`npx -y mcp-remote@…`),
 * pinned exactly: `npx -y` runs whatever version the registry has, and mcp-remote has shipped a
 * critical remote-code-execution bug (CVE-2025-6514, fixed in 0.1.16). Raise it deliberately.
 */
export const MCP_REMOTE_VERSION = '0.15.1';
