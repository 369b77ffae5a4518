import { join, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

/** An options interface or type alias of a package's source, e.g. `packages/server/src/app/AppOptions.ts`'s `AppOptions`. */
export interface OptionsType {
  readonly source: string;
  readonly name: string;
  /** Only the keys the type declares itself, not those it inherits (documented with its base). */
  readonly ownOnly?: boolean;
  /** Keys no options table needs to list, e.g. the `transport` every example shows. */
  readonly except?: readonly string[];
}

/** The keys of each type, read with the TypeScript compiler: inherited ones too unless `ownOnly`, never `@deprecated` ones or `except`. */
export function optionKeys(types: readonly OptionsType[]): Map<OptionsType, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  // No global @types package (node, jest) declares an option: leaving them out halves the work, same keys.
  const program = ts.createProgram([...new Set(types.map((t) => resolve(ROOT, t.source)))], { ...config?.options, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const keys = new Map<OptionsType, string[]>();
  for (const type of types) {
    const file = program.getSourceFile(resolve(ROOT, type.source));
    const declaration = file?.statements.find(
      (s): s is ts.InterfaceDeclaration | ts.TypeAliasDeclaration => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === type.name,
    );
    if (!declaration) throw new Error(`${type.source} declares no ${type.name}: update the list of documented options in docs/test/options-documented.test.ts.`);
    const properties = checker.getPropertiesOfType(checker.getTypeAtLocation(declaration.name));
    keys.set(
      type,
      properties
        .filter((p) => !type.ownOnly || p.declarations?.some((d) => d.parent === declaration))
        .filter((p) => !type.except?.includes(p.name) && !p.getJsDocTags(checker).some((tag) => tag.name === 'deprecated'))
        .map((p) => p.name),
    );
  }
  return keys;
}

/**
 * The option names a page's options tables list: the code spans of the first cell of each row
 * of a table whose first header cell ends in "option" (`credentials(caller)` names `credentials`,
 * and a row for one key of a nested option, `csp.connectDomains`, names `csp`).
 */
export function tableOptions(markdown: string): Set<string> {
  const names = new Set<string>();
  let row = 0;
  let inOptionTable = false;
  for (const line of markdown.split('\n')) {
    row = line.startsWith('|') ? row + 1 : 0;
    const first = line.split(/(?<!\\)\|/)[1]?.trim() ?? '';
    if (row === 1) inOptionTable = /option$/i.test(first);
    if (row < 3 || !inOptionTable) continue;
    for (const [, code] of first.matchAll(/`([^`]+)`/g)) names.add(code.replace(/[(.].*$/, ''));
  }
  return names;
}
