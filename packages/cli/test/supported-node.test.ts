/**
 * The supported Node.js range: declared once (`SUPPORTED_NODE`), the same in every package.json
 * and generated project, and enforced with a one-line message by the CLI and at server startup.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateProject } from '@toolwright/cli';
import { SUPPORTED_NODE, unsupportedNodeMessage } from '../src/cli/supportedNode';
import { assertSupportedNode } from '../../server/src/app/assertSupportedNode';
import { run } from './helpers/run';

const REPO = join(__dirname, '..', '..', '..');
const SUPPORTED = ['20.19.0', '20.20.2', '22.12.0', '22.23.3', '24.0.0', '24.21.0', '26.1.0'];
const UNSUPPORTED = ['18.20.8', '20.18.3', '21.7.3', '22.11.0', '23.11.1'];

describe('supported Node.js versions', () => {
  it('every package.json and every generated project declares the same engines.node', () => {
    const folders = ['.', ...['packages', 'examples'].flatMap((dir) => readdirSync(join(REPO, dir)).map((name) => `${dir}/${name}`))];
    const engines = Object.fromEntries(folders.map((dir) => [dir, JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')).engines?.node]));
    expect(engines).toEqual(Object.fromEntries(folders.map((dir) => [dir, SUPPORTED_NODE])));
    const generated = generateProject({ template: 'minimal', transport: 'stdio', packageName: 'x', toolwrightVersion: '0.1.0' });
    expect(JSON.parse(generated.find((f) => f.path === 'package.json')!.content).engines).toEqual({ node: SUPPORTED_NODE });
  });

  it.each(SUPPORTED)('%s is supported by the CLI and the server', (version) => {
    expect(unsupportedNodeMessage(version)).toBeUndefined();
    expect(() => assertSupportedNode(version)).not.toThrow();
  });

  it.each(UNSUPPORTED)('%s is refused by the CLI and the server', (version) => {
    expect(unsupportedNodeMessage(version)).toContain(`needs Node.js ${SUPPORTED_NODE}, and this is Node.js ${version}.`);
    expect(() => assertSupportedNode(version)).toThrow(`needs Node.js ${SUPPORTED_NODE}, and this is Node.js ${version}.`);
  });

  it('both refusals point to the newest LTS line, not to a major that stops being the active LTS', () => {
    for (const message of [unsupportedNodeMessage('18.20.8')!, captureThrown(() => assertSupportedNode('18.20.8'))]) {
      expect(message).toContain("'nvm install --lts'");
      expect(message).not.toMatch(/Node\.js \d+ \(the active LTS\)/);
    }
  });

  describe('on Node.js 18 (pretended), one line on stderr and no stack', () => {
    const onNode18 = (script: string, ...args: string[]) => run(process.execPath, ['-r', join(__dirname, 'fixtures', 'pretend-node-18.js'), script, ...args], tmp);
    let tmp: string;
    beforeAll(() => (tmp = mkdtempSync(join(tmpdir(), 'toolwright-node18-'))));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));

    it.each([
      ['toolwright new', join(REPO, 'packages', 'cli', 'bin', 'toolwright.js'), 'new', 'app'],
      ['npm create toolwright', join(REPO, 'packages', 'create-toolwright', 'bin', 'create-toolwright.js'), 'app'],
    ])('%s exits 2 and writes nothing', async (_, bin, ...args) => {
      const result = await onNode18(bin, ...args);
      expect(result).toEqual({ code: 2, stdout: '', stderr: `error: ${unsupportedNodeMessage('18.20.8')}\n` });
      expect(readdirSync(tmp)).toEqual([]);
    });

    it('npm test stops at its prerequisites check, naming the range', async () => {
      const result = await onNode18(join(REPO, 'scripts', 'check-prerequisites.js'));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Node 18.20.8: the repository needs Node ${SUPPORTED_NODE} (https://nodejs.org, or nvm install 24).`);
    });

    it('a server exits 1 at startup', async () => {
      const result = await onNode18(join(REPO, 'examples', 'minimal', 'dist', 'server.js'));
      expect(result).toEqual({ code: 1, stdout: '', stderr: `${captureThrown(() => assertSupportedNode('18.20.8'))}\n` });
    });
  });
});

function captureThrown(fn: () => void): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}
