import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { clientConfigFile } from '../src/config/clientConfigFile';
import { memoryIo } from './helpers/memoryIo';

describe('toolwright install', () => {
  let project: string;
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), 'toolwright-install-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: '@acme/notes', main: 'dist/server.js', scripts: { start: 'node dist/server.js' } }));
    mkdirSync(join(project, 'dist'));
    writeFileSync(join(project, 'dist', 'server.js'), '');
  });
  afterEach(() => rmSync(project, { recursive: true, force: true }));

  const install = async (...argv: string[]) => {
    const io = memoryIo(project);
    return { code: await runCli(['install', ...argv], io), stdout: io.output(), stderr: io.errors() };
  };
  const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

  it('vscode: creates .vscode/mcp.json in the project', async () => {
    const result = await install('vscode');
    expect(result.code).toBe(0);
    const file = join(project, '.vscode', 'mcp.json');
    expect(result.stdout).toBe(`Added 'notes' in ${file}. Restart VS Code to use it.\n`);
    expect(read(file)).toEqual({ servers: { notes: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/dist/server.js'] } } });
    expect(existsSync(`${file}.bak`)).toBe(false);
  });

  it('keeps every other server and setting, replaces an entry of the same name, and backs the old file up', async () => {
    const file = join(project, 'claude.json');
    const before = { globalShortcut: 'Ctrl+Space', mcpServers: { other: { command: 'other-server' }, notes: { command: 'old' } } };
    writeFileSync(file, JSON.stringify(before));
    const result = await install('claude', '--file', file);
    expect(result.stdout).toContain(`Replaced 'notes' in ${file} (the previous file is ${file}.bak)`);
    expect(read(file)).toEqual({ globalShortcut: 'Ctrl+Space', mcpServers: { other: { command: 'other-server' }, notes: { command: 'node', args: [join(project, 'dist', 'server.js')] } } });
    expect(read(`${file}.bak`)).toEqual(before);
  });

  it('--dry-run prints the file it would write and changes nothing', async () => {
    const file = join(project, '.cursor', 'mcp.json');
    const result = await install('cursor', '--url', 'http://127.0.0.1:4000/mcp', '--dry-run');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mcpServers: { notes: { url: 'http://127.0.0.1:4000/mcp' } } });
    expect(result.stderr).toContain(`Dry run: would write ${file} (added 'notes', a new file). Nothing was changed.`);
    expect(existsSync(file)).toBe(false);
  });

  // Issue 30 #9: VS Code allows comments and trailing commas in .vscode/mcp.json; install refused such a file.
  it('edits a config file with comments and trailing commas in place, keeping them', async () => {
    const file = join(project, '.vscode', 'mcp.json');
    mkdirSync(join(project, '.vscode'));
    const before = ['{', '  // my servers', '  "servers": {', '    /* the wiki */', '    "wiki": { "type": "stdio", "command": "wiki-server" },', '  },', '  "inputs": [],', '}', ''].join('\n');
    writeFileSync(file, before);
    const result = await install('vscode');
    expect(result.code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('  // my servers\n');
    expect(after).toContain('    /* the wiki */\n    "wiki": {');
    expect(after).toContain('"command": "wiki-server"');
    expect(after).toContain('"notes": {');
    expect(after).toContain('"${workspaceFolder}/dist/server.js"');
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(before);
  });

  it('refuses a config file that is not JSON even with comments, saying where and why in words, and leaves it as it was', async () => {
    const file = join(project, 'mcp.json');
    writeFileSync(file, '{\n  "servers": { oops }\n');
    const result = await install('vscode', '--file', file);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${file} is not valid JSON (comments and trailing commas are allowed): line 2, column 16: unexpected text "oops". Fix the file, or add the snippet of 'toolwright config' by hand.\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "servers": { oops }\n');
    writeFileSync(file, '{ "servers": {} ');
    expect((await install('vscode', '--file', file)).stderr).toContain(": line 1, column 17: expected '}' to close the object. Fix the file");
  });

  // Windows editors start a UTF-8 file with a byte-order mark; install refused it as 'InvalidSymbol at line 1'.
  it('reads through a byte-order mark at the start of the file and writes the file without it, the backup with it', async () => {
    const file = join(project, 'claude.json');
    const before = '\uFEFF{\n  "mcpServers": { "other": { "command": "other-server" } }\n}\n';
    writeFileSync(file, before);
    const result = await install('claude', '--file', file);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${file} starts with a byte-order mark: the new file has none`);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith('{')).toBe(true);
    expect(JSON.parse(after)).toEqual({ mcpServers: { other: { command: 'other-server' }, notes: { command: 'node', args: [join(project, 'dist', 'server.js')] } } });
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(before);
  });

  it('takes a config file that holds only a byte-order mark as empty', async () => {
    const file = join(project, 'claude.json');
    writeFileSync(file, '\uFEFF');
    expect((await install('claude', '--file', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith('{')).toBe(true);
  });

  // `--name 'Bad Name!'` was written into the client's config as given; clients refuse such a key.
  it.each([
    ['Bad Name!', 'Bad-Name'],
    ['wiki.server', 'wiki-server'],
    ['x'.repeat(65), 'x'.repeat(64)],
    ['', 'my-server'],
    ['!!!', 'my-server'],
  ])('install and config refuse --name %j as a usage error and suggest a clean name, writing nothing', async (name, suggestion) => {
    for (const command of ['install', 'config']) {
      const io = memoryIo(project);
      const code = await runCli([command, 'cursor', '--name', name], io);
      expect({ code, stdout: io.output() }).toEqual({ code: 2, stdout: '' });
      expect(io.errors()).toBe(
        `error: Invalid server name '${name}': MCP clients accept letters, digits, '-' and '_', 1 to 64 characters (some refuse spaces and dots). Use e.g. --name '${suggestion}'.\n`,
      );
    }
    expect(existsSync(join(project, '.cursor'))).toBe(false);
  });

  it('takes a --name of letters, digits, - and _, and makes the default name from the package valid', async () => {
    expect((await install('cursor', '--name', 'Notes_2-beta', '--dry-run')).stdout).toContain('"Notes_2-beta": {');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: '@acme/notes.server~v2', main: 'dist/server.js' }));
    const result = await install('cursor');
    expect(result.code).toBe(0);
    expect(read(join(project, '.cursor', 'mcp.json'))).toEqual({ mcpServers: { 'notes-server-v2': { command: 'node', args: [join(project, 'dist', 'server.js')] } } });
  });

  // These were stack traces from an unhandled fs error (exit 70).
  it('refuses, in one line, a --file that is a folder or lies under a file, and writes nothing', async () => {
    mkdirSync(join(project, 'folder.json'));
    writeFileSync(join(project, 'afile'), 'mine');
    const folder = await install('claude', '--file', join(project, 'folder.json'));
    expect(folder).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: Cannot read ${join(project, 'folder.json')}: it is a folder, not a file (EISDIR). Fix that, pass --file <path>, or add the snippet of 'toolwright config claude' by hand.\n`,
    });
    const under = await install('cursor', '--file', join(project, 'afile', 'mcp.json'));
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(
      /^error: Cannot read .*afile\/mcp\.json: a part of its path is a file, not a folder \(ENOTDIR\)\. Fix that, pass --file <path>, or add the snippet of 'toolwright config cursor' by hand\.\n$/,
    );
    expect(readFileSync(join(project, 'afile'), 'utf8')).toBe('mine');
  });

  it('refuses, in one line, when the backup cannot be written, and leaves the config file as it was', async () => {
    const file = join(project, 'claude.json');
    writeFileSync(file, '{"mcpServers": {}}');
    mkdirSync(`${file}.bak`);
    const result = await install('claude', '--file', file);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: Cannot write ${file}.bak: it is a folder, not a file (EISDIR). Fix that, pass --file <path>, or add the snippet of 'toolwright config claude' by hand.\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {}}');
  });

  it('writes through a symbolic link to the file it points at, keeping the link', async () => {
    const real = join(project, 'real.json');
    writeFileSync(real, '{"theme": "dark"}');
    const link = join(project, 'link.json');
    symlinkSync(real, link);
    const result = await install('claude', '--file', link);
    expect(result.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(real)).toEqual({ theme: 'dark', mcpServers: { notes: { command: 'node', args: [join(project, 'dist', 'server.js')] } } });
  });

  it("knows each client's file", () => {
    expect(clientConfigFile('claude', '/p', { platform: 'darwin', home: '/Users/ada' })).toBe('/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
    expect(clientConfigFile('claude', '/p', { platform: 'linux', home: '/home/ada', env: {} })).toBe('/home/ada/.config/Claude/claude_desktop_config.json');
    expect(clientConfigFile('cursor', '/p', { global: true, home: '/home/ada' })).toBe('/home/ada/.cursor/mcp.json');
    expect(clientConfigFile('vscode', '/p')).toBe('/p/.vscode/mcp.json');
  });
});
