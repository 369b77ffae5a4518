/**
 * The Node.js versions Toolwright supports: the maintained LTS lines from the releases that
 * load ES modules with `require` (a generated project is CommonJS). Every package.json in the
 * repo and every generated project declares it as `engines.node`; a test keeps them equal.
 */
export const SUPPORTED_NODE = '^20.19.0 || ^22.12.0 || >=24';

/** Why `toolwright` cannot run on this Node.js, or undefined when it can. */
export function unsupportedNodeMessage(version: string = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major >= 24 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19)) return undefined;
  return `toolwright needs Node.js ${SUPPORTED_NODE}, and this is Node.js ${version}. Install the current LTS release of Node.js, for example with 'nvm install --lts', and run the command again.`;
}
