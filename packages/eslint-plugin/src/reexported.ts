import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ParserServicesWithTypeInformation, TSESTree } from '@typescript-eslint/utils';
import * as ts from 'typescript';

/** The package name of each folder looked up so far: the `name` of its nearest package.json. */
const packageNames = new Map<string, string | undefined>();

/** The name of the package a file belongs to: that of the nearest package.json above it. */
function packageOf(file: string): string | undefined {
  const visited: string[] = [];
  let folder = dirname(file);
  let name: string | undefined;
  for (;;) {
    if (packageNames.has(folder)) {
      name = packageNames.get(folder);
      break;
    }
    visited.push(folder);
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
        const field = typeof parsed === 'object' && parsed !== null ? (parsed as { name?: unknown }).name : undefined;
        name = typeof field === 'string' ? field : undefined;
      } catch {
        name = undefined;
      }
      break;
    }
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const f of visited) packageNames.set(f, name);
  return name;
}

/** Where a symbol is declared: its package and its name there (`*` for a whole module). */
export function declaredIn(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): { source: string; imported: string } | undefined {
  if (!symbol) return undefined;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target.declarations?.[0];
  const source = declaration && packageOf(declaration.getSourceFile().fileName);
  if (source === undefined) return undefined;
  // `export * as tw from '@toolwright/core'` names the module itself: a namespace of it.
  return { source, imported: declaration && ts.isSourceFile(declaration) ? '*' : target.name };
}

/**
 * Where a name imported from a file of the project's own (a barrel: `export { Param } from
 * '@toolwright/core'`) is declared: the package it comes from and its name there. Read with
 * the type checker, through any number of re-exports; undefined when it cannot be resolved.
 */
export function reexported(spec: TSESTree.ImportSpecifier, services: ParserServicesWithTypeInformation): { source: string; imported: string } | undefined {
  const checker = services.program.getTypeChecker();
  const node = services.esTreeNodeToTSNodeMap.get(spec) as ts.ImportSpecifier;
  const symbol = checker.getSymbolAtLocation(node.name);
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Alias)) return undefined;
  return declaredIn(symbol, checker);
}

/**
 * Where the member `name` of a project module imported as a namespace (`import * as barrel
 * from './barrel'`, then `@barrel.Param`) is declared, as for `reexported`.
 */
export function namespaceMember(spec: TSESTree.ImportNamespaceSpecifier, name: string, services: ParserServicesWithTypeInformation): { source: string; imported: string } | undefined {
  const checker = services.program.getTypeChecker();
  const node = services.esTreeNodeToTSNodeMap.get(spec) as ts.NamespaceImport;
  const symbol = checker.getSymbolAtLocation(node.name);
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Alias)) return undefined;
  const module = checker.getAliasedSymbol(symbol);
  return declaredIn(checker.tryGetMemberInModuleExports(name, module), checker);
}
