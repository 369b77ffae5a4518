import { spawn } from 'node:child_process';
import { join } from 'node:path';

const { nodeBinary } = require('../../../../scripts/nodeVersions.js') as { nodeBinary(major: string): string };

/** How a driver reaches the server: it starts a stdio command, or it posts to a URL. */
export type Target = { readonly stdio: { readonly command: string; readonly args: readonly string[] } } | { readonly http: { readonly url: string } };

/** One thing a driver does with its client library; each driver maps these onto that library's own API. */
export type Step =
  | { readonly op: 'listTools' }
  | { readonly op: 'callTool'; readonly name: string; readonly arguments: Record<string, unknown> }
  | { readonly op: 'listResources' }
  | { readonly op: 'readResource'; readonly uri: string }
  | { readonly op: 'listPrompts' }
  | { readonly op: 'getPrompt'; readonly name: string; readonly arguments: Record<string, string> }
  // MCP Apps helpers of a client library (@ai-sdk/mcp): tools split by visibility, a view read for rendering, a raw tools/call.
  | { readonly op: 'splitMcpAppTools' }
  | { readonly op: 'readMcpAppResource'; readonly uri: string }
  | { readonly op: 'callRawTool'; readonly name: string; readonly arguments: Record<string, unknown> };

/** What a step gave back through the library: its value, or the error the library threw. */
export type Outcome = { readonly op: Step['op']; readonly value: unknown } | { readonly op: Step['op']; readonly error: string };

export interface Plan {
  readonly target: Target;
  /** Client-specific settings, e.g. which era to ask for. */
  readonly options?: Record<string, unknown>;
  readonly steps: readonly Step[];
}

/**
 * The Node.js each driver runs on: the machine's (20) where the client supports it, else 22
 * (the `node` npm package pinned in scripts/node-versions, as `npm run test:nodes` uses it).
 */
export const NODE_FOR: Readonly<Record<string, string>> = {
  'ai-sdk': '22', // @ai-sdk/mcp 2.x: engines node >=22
  'openai-agents': '22', // @openai/agents 0.20 needs openai 7, whose engines say node >=22
  langchain: process.versions.node.split('.')[0], // @langchain/mcp-adapters 1.x: node >=20.10
  inspector: '22', // @modelcontextprotocol/inspector 2.x: engines node >=22.19
};

/** The Node.js binary a driver or bin runs on. */
export function nodeFor(client: string): string {
  const major = Object.hasOwn(NODE_FOR, client) ? NODE_FOR[client] : process.versions.node.split('.')[0];
  return nodeBinary(major);
}

/**
 * Runs drivers/<client>.mjs on its Node.js with the plan; resolves with one outcome per step.
 * The driver prints one JSON line; anything else it or its library prints goes to stderr.
 */
export async function runDriver(client: string, plan: Plan, env: NodeJS.ProcessEnv = {}): Promise<Outcome[]> {
  const child = spawn(nodeFor(client), [join(__dirname, '..', '..', 'drivers', `${client}.mjs`), JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = stdout.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('[')) throw new Error(`drivers/${client}.mjs exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
  return JSON.parse(line) as Outcome[];
}
