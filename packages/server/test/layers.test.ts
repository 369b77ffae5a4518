import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The floors of `@toolwright/server`, lowest first: a module imports only from its own floor
 * or the floors below it, and only the SDK facade (`sdk/`) imports the MCP SDK. The
 * Internals page of the docs shows the same table.
 */
export const FLOORS: readonly (readonly [floor: string, folders: readonly string[]])[] = [
  ['ground', ['ground', 'rpc']],
  ['sdk facade', ['sdk']],
  ['services', ['auth', 'roundtrip', 'telemetry']],
  ['pipeline', ['pipeline']],
  ['handlers', ['handlers', 'surface', 'extensions']],
  ['serving', ['serving', 'lanes']],
  ['transports', ['http', 'fetch', 'stdio']],
  ['app', ['app', 'compose', 'index.ts']],
  ['entries', ['testing', 'middleware', 'compile-cache', 'proxy']],
];

const SRC = join(__dirname, '..', 'src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

function floorOf(file: string): number {
  const top = relative(SRC, file).split('/')[0];
  const floor = FLOORS.findIndex(([, folders]) => folders.includes(top));
  if (floor === -1) throw new Error(`${relative(SRC, file)} is on no floor: add its folder to FLOORS in test/layers.test.ts and to the Internals page.`);
  return floor;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
}

const files = filesUnder(SRC);

describe('the floors of @toolwright/server', () => {
  it('has every source folder on a floor', () => {
    for (const file of files) expect(() => floorOf(file)).not.toThrow();
  });

  it('imports only from the same floor or below', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = floorOf(file);
      for (const specifier of importsOf(file).filter((s) => s.startsWith('.'))) {
        const target = resolve(dirname(file), specifier);
        const to = floorOf(target.endsWith('.ts') ? target : `${target}.ts`);
        if (to > from) upward.push(`${relative(SRC, file)} (${FLOORS[from][0]}) imports ${specifier} (${FLOORS[to][0]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('imports the MCP SDK only in the facade', () => {
    const outside = files.filter((file) => !relative(SRC, file).startsWith('sdk/') && importsOf(file).some((s) => s.startsWith('@modelcontextprotocol/')));
    expect(outside.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('never imports an index.ts from inside src (index files only re-export)', () => {
    const inward = files.flatMap((file) =>
      importsOf(file)
        .filter((s) => s.startsWith('.') && /(^|\/)(index)?$|\/\.\.?$/.test(s.replace(/\/index$/, '/')) && s !== '.')
        .map((s) => `${relative(SRC, file)} imports ${s}`),
    );
    expect(inward).toEqual([]);
  });
});
