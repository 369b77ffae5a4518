import { spawn, type ChildProcess } from 'node:child_process';

/** The MCP Inspector version `toolwright dev --inspect` starts, and the Node it needs (its `engines`). */
export const INSPECTOR = { package: '@modelcontextprotocol/inspector', version: '2.12.0', node: '22.19.0' } as const;

/** The command that opens the Inspector's web UI on a Streamable HTTP server. */
export function inspectorCommand(url: string): string[] {
  return ['npx', '-y', `${INSPECTOR.package}@${INSPECTOR.version}`, '--transport', 'http', '--server-url', url];
}

/** Whether this Node can run the Inspector. */
export function nodeRunsInspector(version: string = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  const [needMajor, needMinor] = INSPECTOR.node.split('.').map(Number);
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

/** Starts the Inspector (downloaded by npx on first use) with its output on stderr. */
export function startInspector(url: string, stderr: NodeJS.WritableStream): ChildProcess {
  const [command, ...args] = inspectorCommand(url);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
  child.stdout!.pipe(stderr, { end: false });
  child.stderr!.pipe(stderr, { end: false });
  return child;
}
