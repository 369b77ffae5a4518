import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright install` with a header value written as given (a token, say): a config file it
 * creates is readable and writable by its owner alone (mode 600); an existing file keeps its
 * mode, and the warning says who else can read it and how to change that. POSIX file modes only.
 */
const URL_ = 'http://127.0.0.1:4000/mcp';
const modeOf = (file: string) => statSync(file).mode & 0o777;
const posix = process.platform === 'win32' ? describe.skip : describe;

posix('toolwright install with a literal header value', () => {
  let project: string;
  let umask: number;
  beforeAll(() => {
    // The usual umask, whatever this machine's: 0644 is then the mode of a file created without one.
    umask = process.umask(0o022);
  });
  afterAll(() => process.umask(umask));
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'toolwright-install-mode-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'notes', main: 'dist/server.js' }));
    mkdirSync(join(project, 'dist'));
    writeFileSync(join(project, 'dist', 'server.js'), '');
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  const install = async (...argv: string[]) => {
    const io = memoryIo(project);
    return { code: await runCli(['install', ...argv], io), stdout: io.output(), stderr: io.errors() };
  };

  it.each(['cursor', 'vscode', 'claude'])('%s: creates a new config file with mode 600', async (client) => {
    const file = join(project, 'new', `${client}.json`);
    const result = await install(client, '--url', URL_, '--header', 'Authorization: Bearer l3aked', '--file', file);
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('l3aked');
    expect(modeOf(file)).toBe(0o600);
    expect(result.stderr).toContain(`${file} is new: it was created readable and writable by you alone (mode 600).`);
  });

  it('creates a file without a literal value (a variable) with the usual mode', async () => {
    const file = join(project, 'mcp.json');
    expect((await install('cursor', '--url', URL_, '--header', 'Authorization: Bearer ${env:MCP_TOKEN}', '--file', file)).code).toBe(0);
    expect(modeOf(file)).toBe(0o644);
  });

  it("keeps an existing file's mode, and the warning says others can read the value and how to change that", async () => {
    const file = join(project, 'mcp.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o644);
    const result = await install('cursor', '--url', URL_, '--header', 'Authorization: Bearer l3aked', '--file', file);
    expect(result.code).toBe(0);
    expect(modeOf(file)).toBe(0o644);
    expect(result.stderr).toContain(`Warning: ${file} keeps its mode (644): other users of this machine can read the header's value in it. Run chmod 600 ${file} to keep it to yourself.`);
  });

  it('says nothing more of an existing file only its owner can read', async () => {
    const file = join(project, 'mcp.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o600);
    const result = await install('cursor', '--url', URL_, '--header', 'Authorization: Bearer l3aked', '--file', file);
    expect(modeOf(file)).toBe(0o600);
    expect(result.stderr).not.toContain('keeps its mode');
    expect(result.stderr).not.toContain('is new');
  });
});
