import 'reflect-metadata';
import { compileSchemaValidator } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi } from '@toolwright/openapi';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * GitHub's REST description (`@octokit/openapi`, api.github.com.json: about 13 MB, 1,200
 * operations) built into tools within a stated budget, listed through the real SDK v2 client
 * (which compiles every output schema with its own validator) and one tool called against a
 * stand-in API on 127.0.0.1.
 *
 * The package unpacks to 385 MB, so it is no dependency: the test takes the one file it reads
 * from `npm pack` (npm's cache makes later runs offline) into a folder outside the workspace.
 *
 * The budget it holds (measured on a 2-core machine shared by other jobs: about 0.3-1 s of CPU
 * for fromOpenApi and 0.5-2 s for createApp, about 40 MB of heap kept by the app): at most 15 s
 * of CPU for both, and at most 200 MB of heap kept once the description itself is dropped.
 */
const VERSION = '23.0.2';
const CPU_BUDGET_MS = 15_000;
const HEAP_BUDGET_MB = 200;
// A full collection before each heap reading, without starting jest under --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function description(): string {
  const dir = join(tmpdir(), `toolwright-octokit-openapi-${VERSION}`);
  const file = join(dir, 'api.github.com.json');
  if (existsSync(file)) return file;
  const work = `${dir}.${process.pid}`;
  mkdirSync(work, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', `@octokit/openapi@${VERSION}`, '--silent'], { cwd: work, encoding: 'utf8', timeout: 120_000 })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['-xzf', tarball, 'package/generated/api.github.com.json'], { cwd: work, timeout: 60_000 });
    mkdirSync(dir, { recursive: true });
    renameSync(join(work, 'package', 'generated', 'api.github.com.json'), file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return file;
}

let api: Server;
let baseUrl: string;
beforeAll(async () => {
  api = createServer((req, res) => {
    if (req.url === '/zen') res.writeHead(200, { 'content-type': 'text/plain' }).end('Keep it logically awesome.');
    else if (req.url === '/emojis') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ '+1': 'https://example.test/1.png' }));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
}, 180_000);
afterAll(() => new Promise((resolve) => api.close(resolve)));

it('builds every operation of the GitHub description into valid tools within the budget, and serves them', async () => {
  const file = description();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  // Held through an object, so the description can be let go of before the heap is measured.
  const held: { document?: object } = { document: JSON.parse(readFileSync(file, 'utf8')) as object };
  const cpu = process.cpuUsage();
  const tools = await fromOpenApi(held.document!, { baseUrl, auth: { type: 'bearer', token: 'server-token' } });
  const app = await createApp({ name: 'github', version: '1', tools: [tools] });
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  delete held.document;
  gc();
  const keptMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  process.stderr.write(`GitHub description: ${tools.operations.length} tools, ${tools.skipped.length} skipped, ${Math.round(cpuMs)} ms CPU, ${Math.round(keptMb)} MB heap kept\n`);
  expect(cpuMs).toBeLessThan(CPU_BUDGET_MS);
  expect(keptMb).toBeLessThan(HEAP_BUDGET_MB);

  expect(tools.skipped).toEqual([]);
  expect(tools.operations.length).toBeGreaterThan(1000);
  expect(tools.operations.filter((op) => op.outputSchema).length).toBeGreaterThan(500);
  for (const op of tools.operations) {
    expect(() => compileSchemaValidator(op.inputSchema)).not.toThrow();
    if (op.outputSchema) expect(() => compileSchemaValidator(op.outputSchema!)).not.toThrow();
  }

  const client = await createTestClient(app, { era: 'modern' });
  const listed = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  expect(listed).toHaveLength(tools.operations.length);
  await client.close();

  // A client that listed the tools compiles all 644 output schemas with ajv on its first call
  // (about 30 s here: the SDK client's cost, not the server's), so the calls use one that did not.
  const caller = await createTestClient(app, { era: 'modern' });
  const zen = await caller.callTool({ name: 'meta/get-zen'.replace('/', '_'), arguments: {} });
  expect(zen.content).toEqual([{ type: 'text', text: 'Keep it logically awesome.' }]);
  const emojis = await caller.callTool({ name: 'emojis_get', arguments: {} });
  expect(emojis.structuredContent).toEqual({ '+1': 'https://example.test/1.png' });
  await caller.close();
}, 180_000);
