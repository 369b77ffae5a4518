import { ConfigError } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi } from '@toolwright/openapi';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { closeLocal, listenLocal } from './fixtures/listenLocal';

/**
 * Descriptions that stand for far more than they hold: YAML aliases nested so that a few hundred
 * bytes expand to billions of schema objects ("billion laughs"), an alias inside its own value,
 * and `$ref`s with broken percent-encoding. Each must be a ConfigError within a bounded time,
 * read from a file and from a real HTTP server on 127.0.0.1.
 */
let dir: string;
let server: Server;
let origin: string;
const served = new Map<string, string>();

/** A YAML description whose one parameter schema is `levels` aliases deep, each repeating the last four times. */
function laughs(levels: number): string {
  let yaml = "openapi: 3.1.0\ninfo: {title: laughs, version: '1'}\nx-l0: &l0 {type: string, description: lol}\n";
  for (let i = 1; i < levels; i++) yaml += `x-l${i}: &l${i} {allOf: [*l${i - 1}, *l${i - 1}, *l${i - 1}, *l${i - 1}]}\n`;
  return `${yaml}paths:\n  /a:\n    get:\n      operationId: a\n      parameters:\n        - {name: q, in: query, schema: *l${levels - 1}}\n`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'toolwright-openapi-expansion-'));
  server = createServer((req, res) => {
    const text = served.get(req.url ?? '');
    if (text === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
  });
  origin = await listenLocal(server);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeLocal(server);
});

/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

it('refuses a YAML "billion laughs" description from a file or a URL with a ConfigError, in bounded time', async () => {
  const file = join(dir, 'laughs.yaml');
  writeFileSync(file, laughs(30));
  served.set('/laughs.yaml', laughs(30));
  served.set('/laughs', laughs(30)); // no extension: the bundler tries every parser, plain text too
  for (const source of [file, `${origin}/laughs.yaml`, `${origin}/laughs`]) {
    // The CPU time of this process, where both fromOpenApi and the HTTP server run (the clock would count a loaded machine's other work).
    const started = process.cpuUsage();
    const error = await fromOpenApi(source, { baseUrl: 'http://127.0.0.1:1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/holds more than 2000000 objects and arrays once its shared parts \(YAML aliases\) are counted/);
    expect(cpuMsSince(started)).toBeLessThan(5_000);
  }
});

it('refuses a description that holds itself through a YAML alias', async () => {
  const file = join(dir, 'self.yaml');
  writeFileSync(file, "openapi: 3.1.0\ninfo: {title: self, version: '1'}\nx-loop: &loop {items: [*loop]}\npaths: {}\n");
  const error = await fromOpenApi(file, { baseUrl: 'http://127.0.0.1:1' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toMatch(/contains itself/);
});

it('still reads a description whose aliases repeat a little, and serves it', async () => {
  const file = join(dir, 'few.yaml');
  writeFileSync(file, laughs(4));
  const tools = await fromOpenApi(file, { baseUrl: 'http://127.0.0.1:1' });
  const app = await createApp({ name: 'few', version: '1.0.0', tools: [tools] });
  const client = await createTestClient(app);
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['a']);
  } finally {
    await client.close();
  }
});

it('refuses a $ref whose percent-encoding is broken with a ConfigError naming it, not a URIError', async () => {
  const doc = (ref: string) => ({
    openapi: '3.1.0',
    info: { title: 'pct', version: '1' },
    paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query', schema: { $ref: ref } }] } } },
    components: { schemas: { '%E0%A4%A': { type: 'string' } } },
  });
  const error = await fromOpenApi(doc('#/components/schemas/%E0%A4%A'), { baseUrl: 'http://127.0.0.1:1' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toContain('"#/components/schemas/%E0%A4%A" at GET /a parameter \'q\' points at nothing in the description');
  const parameterRef = { openapi: '3.1.0', info: { title: 'pct', version: '1' }, paths: { '/a': { get: { parameters: [{ $ref: '#/components/parameters/%ZZ' }] } } } };
  await expect(fromOpenApi(parameterRef, { baseUrl: 'http://127.0.0.1:1' })).rejects.toThrow(ConfigError);
});
