import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `sdk/deferUnusedModules`: the SDK's Ajv provider and zod's translations load on first use,
 * not with the SDK. Each test runs a fresh node process on the built packages, since jest's
 * module registry never goes through Node's module cache.
 */
const ROOT = join(__dirname, '..', '..', '..');

/** Runs `script` (statements ending in an expression whose value is printed as JSON) in a fresh node. */
async function probe(script: string): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', `const out = (() => { ${script} })(); process.stdout.write(JSON.stringify(out));`], { cwd: ROOT });
  return JSON.parse(stdout);
}

const LOADED = `const loaded = (re) => Object.keys(require.cache).filter((f) => re.test(f)).map((f) => f.replace(/^.*node_modules\\//, ''));`;

describe('modules the SDK loads and a Toolwright server does not run', () => {
  it('are not loaded with the SDK: no Ajv provider, no translation but English', async () => {
    const out = await probe(`${LOADED}
      require('@toolwright/server');
      require('@modelcontextprotocol/server');
      return { ajv: loaded(/ajvProvider|validators\\/ajv/), locales: loaded(/zod\\/v4\\/locales\\/(?!index)/) };`);
    expect(out).toEqual({ ajv: [], locales: ['zod/v4/locales/en.cjs'] });
  });

  it('keep the SDK shims that are not deferred as the SDK has them', async () => {
    // When these names change, the SDK's shims changed: deferAjvProvider must follow them.
    const real = jest.requireActual<Record<string, unknown>>('@modelcontextprotocol/server/_shims');
    const out = await probe(`require('@toolwright/server'); const shims = require('@modelcontextprotocol/server/_shims');
      return { names: Object.keys(shims).sort(), process: shims.process === process };`);
    expect(out).toEqual({ names: Object.keys(real).sort(), process: true });
  });

  it("give the SDK's default validator, which loads Ajv on its first schema and then judges as Ajv does", async () => {
    const out = await probe(`${LOADED}
      require('@toolwright/server');
      const { fromJsonSchema } = require('@modelcontextprotocol/server');
      const before = loaded(/ajvProvider/).length;
      const schema = fromJsonSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } }, required: ['n'] });
      const check = (value) => schema['~standard'].validate(value);
      return { before, after: loaded(/ajvProvider/).length, good: check({ n: 2, email: 'a@b.co' }), low: check({ n: 0 }), email: check({ n: 1, email: 'nope' }) };`);
    expect(out).toEqual({
      before: 0,
      after: 1,
      good: { value: { n: 2, email: 'a@b.co' } },
      low: { issues: [{ message: 'data/n must be >= 1' }] },
      email: { issues: [{ message: 'data/email must match format "email"' }] },
    });
  });

  it('give zod every translation it has, each loaded when read and working as configured', async () => {
    const real = (await probe(`return Object.keys(require('zod/v4').locales);`)) as string[];
    const out = await probe(`${LOADED}
      require('@toolwright/server');
      const { z } = require('zod/v4');
      const names = Object.keys(z.locales);
      const before = loaded(/locales\\/de\\.cjs/).length;
      z.config(z.locales.de());
      const message = z.string().safeParse(1).error.issues[0].message;
      return { names, before, after: loaded(/locales\\/de\\.cjs/).length, same: z.locales.de === z.locales.de, message };`);
    expect(real.length).toBeGreaterThan(50);
    expect(out).toEqual({ names: real, before: 0, after: 1, same: true, message: expect.stringMatching(/^Ungültige Eingabe/) });
  });

  it('change nothing once the SDK is loaded', async () => {
    const out = await probe(`${LOADED}
      require('@modelcontextprotocol/server');
      require('@toolwright/server');
      return { ajv: loaded(/ajvProvider/).length > 0, locales: loaded(/zod\\/v4\\/locales\\/(?!index)/).length > 50 };`);
    expect(out).toEqual({ ajv: true, locales: true });
  });
});
