import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The entry's own words keep the server's optional parts when the bundler runs from a folder other than resolveDir (esbuild names the entry from the working folder). */
const ROOT = join(__dirname, '..');
const REPO = join(ROOT, '..', '..');
const BUNDLER = join(ROOT, 'scripts', 'bundleWorker.mjs');
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(ROOT, '.bundle-entry-cwd-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bundleAndCall(name: string, entry: string, cwd: string): string {
  const outfile = join(dir, `${name}.mjs`);
  const source = `import { bundleWorker } from ${JSON.stringify(`file://${BUNDLER}`)};\nawait bundleWorker({ entry: ${JSON.stringify(entry)}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(outfile)}, compileHints: false });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd, encoding: 'utf8' });
  const script = `globalThis.process.getBuiltinModule ??= (id) => require(id);\nimport(${JSON.stringify(`file://${outfile}`)}).then((m) => m.default.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' } }))).then(async (response) => console.log('status ' + response.status + ' ' + (await response.text()).slice(0, 300)), (error) => console.log('threw ' + error.message));`;
  return execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
}

const ENTRY = `import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { NoteTools } from ${JSON.stringify(join(ROOT, 'dist', 'notes.tools.js'))};
export default { fetch: (request) => createApp({ name: 'a', version: '1.0.0', tools: [NoteTools] }).then((app) => createFetchHandler(app, { stateless: true, auth: { verifyToken: async () => undefined, resource: 'http://127.0.0.1/mcp' } })(request)) };
`;

describe('entry words: entry words with the bundler run from another folder', () => {
  it.each([
    ['resolveDir', ROOT],
    ['the repository root', REPO],
  ])('run from %s, an entry passing `auth` keeps bearer authentication (401 without a token)', (_, cwd) => {
    const out = bundleAndCall(`auth-${cwd === ROOT ? 'here' : 'root'}`, ENTRY, cwd);
    expect(out).not.toContain('is not in this Worker bundle');
    expect(out).toContain('status 401');
  });
});
