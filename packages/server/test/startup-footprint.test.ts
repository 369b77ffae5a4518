import { execFile, spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

/**
 * What a server loads before it serves decides its cold start and memory. These run a
 * fresh node process on the built packages (jest's own module registry would hide this).
 */
const ROOT = join(__dirname, '..', '..', '..');

/** The files in node's module cache once `script` (a promise expression) settles, relative to the repo. */
async function loadedFiles(script: string): Promise<string[]> {
  const probe = `${script}.then(() => process.stdout.write(JSON.stringify(Object.keys(require.cache))));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe], { cwd: ROOT });
  return (JSON.parse(stdout) as string[]).map((file) => relative(ROOT, file)).sort();
}

async function loadedPackages(script: string): Promise<string[]> {
  const names = (await loadedFiles(script)).flatMap((f) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []);
  return [...new Set(names)].sort();
}

describe('startup footprint', () => {
  it('does not load class-validator, class-transformer or the HTTP stack for a stdio app without DTOs', async () => {
    const packages = await loadedPackages(`
      require('reflect-metadata');
      const { Param, Tool } = require('@toolwright/core');
      const { createApp } = require('@toolwright/server');
      class Echo { echo(text) { return text; } }
      Param('text', { type: () => String })(Echo.prototype, 'echo', 0);
      Tool({ description: 'Echo' })(Echo.prototype, 'echo', Object.getOwnPropertyDescriptor(Echo.prototype, 'echo'));
      createApp({ name: 'echo', version: '1', tools: [Echo] }).then((app) => app.createServer())`);
    expect(packages).toEqual(expect.arrayContaining(['@modelcontextprotocol/server', 'reflect-metadata']));
    for (const heavy of ['class-validator', 'class-transformer', 'libphonenumber-js', 'hono', '@hono/node-server', 'express', '@opentelemetry/api']) {
      expect(packages).not.toContain(heavy);
    }
  });

  it('does not load the HTTP stack for the weather example over stdio', async () => {
    const packages = await loadedPackages(`require('./examples/weather/dist/app.js').createWeatherApp().then((app) => app.createServer())`);
    expect(packages).toContain('class-validator');
    for (const heavy of ['hono', '@hono/node-server', 'express']) expect(packages).not.toContain(heavy);
  });

  it('leaves Web Crypto unloaded until a 2026-07-28 round signs its first state', async () => {
    const probe = `require('./examples/weather/dist/app.js').createWeatherApp().then((app) => app.createServer())
      .then(() => process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m.includes('webcrypto')))));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', probe], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('leaves node:crypto unloaded at startup (the hand-written SDK servers never load it)', () => {
    // The probe is read from stdin: `node -e` loads node:crypto itself.
    const probe = `require('./examples/weather/dist/app.js').createWeatherApp().then((app) => { app.createServer(); app.createServer({ era: 'modern' }); })
      .then(() => process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (crypto|internal\\/crypto\\/)/.test(m)))));`;
    const { stdout, stderr } = spawnSync(process.execPath, ['-'], { cwd: ROOT, input: probe, encoding: 'utf8' });
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('loads each Toolwright package as one bundle (scripts/bundle-packages.js), not module by module', async () => {
    const files = await loadedFiles(`require('./examples/weather/dist/app.js').createWeatherApp().then((app) => app.createServer())`);
    expect(files.filter((f) => f.startsWith('packages/'))).toEqual([
      'packages/core/bundle/all.js',
      'packages/core/bundle/dto.js',
      'packages/core/bundle/index.js',
      'packages/core/bundle/internal.js',
      'packages/server/bundle/all.js',
      'packages/server/bundle/index.js',
    ]);
  });
});
