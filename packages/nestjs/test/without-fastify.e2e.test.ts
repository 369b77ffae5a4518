import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `@toolwright/fastify` is an optional peer of `@toolwright/nestjs`: an app on the Express
 * platform runs without it (and without Fastify). A project folder is laid out with the built
 * `@toolwright/nestjs` copied in and every other installed package linked, except
 * `@toolwright/fastify`, `fastify` and `@nestjs/platform-fastify`; a fresh node serves a Nest app
 * on Express there and the MCP SDK v2 client calls a tool. On the Fastify platform (its adapter
 * loaded from the repository) the same project fails at startup saying what to install.
 */
const ROOT = join(__dirname, '..', '..', '..');
const MODULES = join(ROOT, 'node_modules');
const LEFT_OUT = new Set(['fastify', '@toolwright/fastify', '@toolwright/nestjs', '@nestjs/platform-fastify']);

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'toolwright-nest-express-'));
  const modules = join(project, 'node_modules');
  for (const entry of readdirSync(MODULES)) {
    if (entry.startsWith('.')) continue;
    if (!entry.startsWith('@')) {
      if (!LEFT_OUT.has(entry)) symlinkSync(join(MODULES, entry), join(modules, entry), 'dir');
      continue;
    }
    for (const scoped of readdirSync(join(MODULES, entry))) {
      if (LEFT_OUT.has(`${entry}/${scoped}`)) continue;
      mkdirSync(join(modules, entry), { recursive: true });
      symlinkSync(join(MODULES, entry, scoped), join(modules, entry, scoped), 'dir');
    }
  }
  // A copy, not a link: its requires resolve from this project, where @toolwright/fastify is not.
  const nestjs = join(modules, '@toolwright', 'nestjs');
  cpSync(join(ROOT, 'packages', 'nestjs', 'dist'), join(nestjs, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'packages', 'nestjs', 'package.json'), join(nestjs, 'package.json'));
  writeFileSync(join(project, 'serve.js'), SERVE);
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs serve.js on a platform; resolves with the line it printed. */
async function serve(platform: 'express' | 'fastify'): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['serve.js', platform, join(MODULES, '@nestjs', 'platform-fastify')], { cwd: project, timeout: 30_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

it('a Nest app on the Express platform serves tools with neither @toolwright/fastify nor Fastify installed', async () => {
  expect(await serve('express')).toEqual({ fastifyResolves: false, text: 'Hello, Ada!', negotiated: '2026-07-28', fastifyLoaded: [] });
});

it('on the Fastify platform, the missing @toolwright/fastify is a startup error saying what to install', async () => {
  const { error } = await serve('fastify');
  expect(error).toMatch(/optional peer dependency that is not installed\. Run 'npm install @toolwright\/fastify'/);
});

// Plain JavaScript (no compiler): the decorators are applied by hand, with the metadata tsc would emit.
const SERVE = `
require('reflect-metadata');
const { Module, Injectable } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { Tool, Param } = require('@toolwright/core');
const { ToolwrightModule } = require('@toolwright/nestjs');
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');

class GreetTools {
  greet(name) {
    return 'Hello, ' + name + '!';
  }
}
Reflect.defineMetadata('design:paramtypes', [String], GreetTools.prototype, 'greet');
Param('name')(GreetTools.prototype, 'greet', 0);
Tool({ description: 'Greet someone by name.' })(GreetTools.prototype, 'greet', Object.getOwnPropertyDescriptor(GreetTools.prototype, 'greet'));
Injectable()(GreetTools);

class AppModule {}
Module({ imports: [ToolwrightModule.forRoot({ name: 'shop', version: '1.0.0', tools: [GreetTools], http: { requestLogLevel: 'silent' } })] })(AppModule);

async function main() {
  const [platform, fastifyAdapterPath] = process.argv.slice(2);
  let fastifyResolves = true;
  try {
    require.resolve('@toolwright/fastify');
  } catch {
    fastifyResolves = false;
  }
  const adapter = platform === 'fastify' ? new (require(fastifyAdapterPath).FastifyAdapter)() : undefined;
  let nest;
  try {
    nest = adapter ? await NestFactory.create(AppModule, adapter, { logger: false, abortOnError: false }) : await NestFactory.create(AppModule, { logger: false, abortOnError: false });
    await nest.listen(0, '127.0.0.1');
  } catch (error) {
    console.log(JSON.stringify({ error: error.message }));
    return;
  }
  const client = new Client({ name: 'check', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', (await nest.getUrl()).replace('[::1]', '127.0.0.1'))));
  const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  const negotiated = client.getNegotiatedProtocolVersion();
  await client.close();
  await nest.close();
  const fastifyLoaded = Object.keys(require.cache).filter((file) => /[\\\\/]fastify[\\\\/]|[\\\\/]@toolwright[\\\\/]fastify[\\\\/]/.test(file));
  console.log(JSON.stringify({ fastifyResolves, text: result.content[0].text, negotiated, fastifyLoaded }));
}
main().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
`;
