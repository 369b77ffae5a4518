import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Worker bundler keeps the server's optional parts a file of the app names, the entry too:
 * it is given as text (`stdin`), and its name in the metafile was once read from the current
 * folder instead, so an entry that itself names `mount` or `auth` got the stand-ins.
 */
const ROOT = join(__dirname, '..');
const BUNDLER = join(ROOT, 'scripts', 'bundleWorker.mjs');
let dir: string;
beforeAll(() => (dir = mkdtempSync(join(ROOT, '.bundle-entry-words-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bundleAndCall(name: string, entry: string): string {
  const outfile = join(dir, `${name}.mjs`);
  const source = `import { bundleWorker } from ${JSON.stringify(`file://${BUNDLER}`)};\nawait bundleWorker({ entry: ${JSON.stringify(entry)}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(outfile)} });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' });
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
  const script = `globalThis.process.getBuiltinModule ??= (id) => require(id);\nimport(${JSON.stringify(`file://${outfile}`)}).then((m) => m.default.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: ${JSON.stringify(body)}, headers: ${JSON.stringify(headers)} }))).then(async (response) => console.log('status ' + response.status + ' ' + (await response.text()).slice(0, 300)), (error) => console.log('threw ' + error.message));`;
  return execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
}

describe('words named in the Worker entry itself', () => {
  it('an entry that mounts an app (names `mount`) keeps composition', () => {
    const entry = `import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { NoteTools } from ${JSON.stringify(join(ROOT, 'dist', 'notes.tools.js'))};
const outer = async () => createApp({ name: 'outer', version: '1.0.0', tools: [], mount: [{ app: await createApp({ name: 'inner', version: '1.0.0', tools: [NoteTools] }), namespace: 'inner' }] });
export default { fetch: (request) => outer().then((app) => createFetchHandler(app, { stateless: true })(request)) };
`;
    const out = bundleAndCall('entry-mount', entry);
    expect(out).not.toContain('is not in this Worker bundle');
    expect(out).toContain('inner_');
  });

  it('an entry that passes the endpoint `auth` keeps bearer authentication (a request without a token gets 401)', () => {
    const entry = `import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { NoteTools } from ${JSON.stringify(join(ROOT, 'dist', 'notes.tools.js'))};
export default { fetch: (request) => createApp({ name: 'a', version: '1.0.0', tools: [NoteTools] }).then((app) => createFetchHandler(app, { stateless: true, auth: { verifyToken: async () => undefined, resource: 'http://127.0.0.1/mcp' } })(request)) };
`;
    const out = bundleAndCall('entry-auth', entry);
    expect(out).not.toContain('is not in this Worker bundle');
    expect(out).toContain('status 401');
  });
});
