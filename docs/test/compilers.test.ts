import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

const snippets = join(__dirname, '..', 'snippets', 'compilers');
const probe = readFileSync(join(snippets, 'probe.ts'), 'utf8');

function compile(options: ts.CompilerOptions): string {
  return ts.transpileModule(probe, { compilerOptions: { ...options, removeComments: true } }).outputText;
}

describe('compilers page', () => {
  it('the tsconfig it shows makes tsc emit decorator metadata', () => {
    const { config } = ts.readConfigFile(join(snippets, 'tsconfig.json'), ts.sys.readFile);
    const { options, errors } = ts.convertCompilerOptionsFromJson(config.compilerOptions, snippets);
    expect(errors).toEqual([]);
    expect(compile(options)).toContain('__metadata("design:paramtypes", [String, Number])');
    expect(compile({ ...options, emitDecoratorMetadata: false })).not.toContain('design:paramtypes');
  });

  it('the swc config it shows turns on legacy decorators and metadata', () => {
    const swc = JSON.parse(readFileSync(join(snippets, 'swcrc.json'), 'utf8')) as { jsc: { parser: { decorators: boolean }; transform: { legacyDecorator: boolean; decoratorMetadata: boolean } } };
    expect(swc.jsc.parser.decorators).toBe(true);
    expect(swc.jsc.transform).toEqual({ legacyDecorator: true, decoratorMetadata: true });
  });
});
