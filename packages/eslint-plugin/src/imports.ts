import type { ParserServices, ParserServicesWithTypeInformation, TSESTree } from '@typescript-eslint/utils';
import { namespaceMember, reexported } from './reexported';

/** Where decorators come from that make a class a DTO: validation, transformation and Toolwright's docs. */
const DTO_SOURCES = new Set(['class-validator', 'class-transformer', '@toolwright/core', '@toolwright/core/dto']);

/** Whether decorators of this package make a class a DTO. */
export function isDtoSource(source: string | undefined): boolean {
  return source !== undefined && DTO_SOURCES.has(source);
}

/** A statement that names `@toolwright/core` as its source. */
export type ToolwrightDeclaration = TSESTree.ImportDeclaration | TSESTree.ExportNamedDeclaration | TSESTree.ExportAllDeclaration;

/** Where an imported name is declared: the module or package, and its exported name there (`*` for a namespace). */
export interface Origin {
  source: string;
  imported: string;
}

/** The names a file imports, by local name: where from and under which exported name (`*` for a namespace). */
export interface FileImports {
  /** The exported name of Toolwright's core a local name stands for, if it is one. */
  toolwright(local: string): string | undefined;
  /** Whether a local name comes from a package whose decorators make a class a DTO. */
  dtoDecorator(local: string): boolean;
  /** Where an imported local name is declared (through a barrel, with type information); undefined for a name not imported. */
  origin(local: string): Origin | undefined;
  /**
   * Where the member `name` of a project module imported as a namespace (`import * as barrel
   * from './barrel'`) is declared; undefined without type information.
   */
  member(namespace: string, name: string): Origin | undefined;
  /**
   * The declarations that import `@toolwright/core` or re-export from it (a barrel), and, with
   * type information, those that import a name of it through a barrel.
   */
  readonly toolwrightDeclarations: readonly ToolwrightDeclaration[];
}

/**
 * The imports of a file. With type information (`services`), a name imported from elsewhere
 * than these packages (a barrel of the project's own that re-exports them) counts as imported
 * from where it is declared.
 */
export function readImports(program: TSESTree.Program, services?: Partial<ParserServices>): FileImports {
  const typed = services?.program ? (services as ParserServicesWithTypeInformation) : undefined;
  const byLocal = new Map<string, Origin>();
  const namespaces = new Map<string, TSESTree.ImportNamespaceSpecifier>();
  const members = new Map<string, Origin | undefined>();
  const toolwrightDeclarations: ToolwrightDeclaration[] = [];
  for (const statement of program.body) {
    if ((statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportAllDeclaration') && statement.source?.value === '@toolwright/core') toolwrightDeclarations.push(statement);
    if (statement.type !== 'ImportDeclaration') continue;
    const source = statement.source.value;
    if (source === '@toolwright/core') toolwrightDeclarations.push(statement);
    for (const spec of statement.specifiers) {
      const imported = spec.type === 'ImportSpecifier' ? (spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value) : spec.type === 'ImportDefaultSpecifier' ? 'default' : '*';
      const declared = typed && spec.type === 'ImportSpecifier' && !DTO_SOURCES.has(source) ? reexported(spec, typed) : undefined;
      byLocal.set(spec.local.name, declared && DTO_SOURCES.has(declared.source) ? declared : { source, imported });
      if (declared?.source === '@toolwright/core' && !toolwrightDeclarations.includes(statement)) toolwrightDeclarations.push(statement);
      if (typed && spec.type === 'ImportNamespaceSpecifier' && !DTO_SOURCES.has(source)) namespaces.set(spec.local.name, spec);
    }
  }
  return {
    toolwright: (local) => {
      const found = byLocal.get(local);
      return found?.source === '@toolwright/core' ? found.imported : undefined;
    },
    dtoDecorator: (local) => DTO_SOURCES.has(byLocal.get(local)?.source ?? ''),
    origin: (local) => byLocal.get(local),
    member: (namespace, name) => {
      const spec = namespaces.get(namespace);
      if (!spec || !typed) return undefined;
      const key = `${namespace}.${name}`;
      if (!members.has(key)) members.set(key, namespaceMember(spec, name, typed));
      return members.get(key);
    },
    toolwrightDeclarations,
  };
}

/**
 * The name a decorator is called by and, for `@ns.Name()`, its namespace:
 * `@IsString()` -> { name: 'IsString' }, `@cv.IsString()` -> { namespace: 'cv', name: 'IsString' }.
 */
export function decoratorCallee(decorator: TSESTree.Decorator): { namespace?: string; name: string } | undefined {
  let expression = decorator.expression;
  if (expression.type === 'CallExpression') expression = expression.callee as typeof expression;
  if (expression.type === 'Identifier') return { name: expression.name };
  if (expression.type === 'MemberExpression' && expression.object.type === 'Identifier' && expression.property.type === 'Identifier') {
    return { namespace: expression.object.name, name: expression.property.name };
  }
  return undefined;
}

/** The Toolwright export a decorator is (`Param`, `Tool` ...), whether imported by name or through a namespace. */
export function toolwrightDecorator(decorator: TSESTree.Decorator, imports: FileImports): string | undefined {
  const callee = decoratorCallee(decorator);
  if (!callee) return undefined;
  if (callee.namespace === undefined) return imports.toolwright(callee.name);
  if (imports.toolwright(callee.namespace) === '*') return callee.name;
  const member = imports.member(callee.namespace, callee.name);
  return member?.source === '@toolwright/core' ? member.imported : undefined;
}

/**
 * Where a decorator is declared: `@IsOptional()`, `@Maybe()` (`import { IsOptional as Maybe }`),
 * `@cv.IsOptional()` (`import * as cv from 'class-validator'`), or one of a barrel of the
 * project's own (with type information) -> { source: 'class-validator', imported: 'IsOptional' }.
 * Undefined for a decorator declared in the file itself or that cannot be resolved.
 */
export function decoratorOrigin(decorator: TSESTree.Decorator, imports: FileImports): Origin | undefined {
  const callee = decoratorCallee(decorator);
  if (!callee) return undefined;
  if (callee.namespace === undefined) return imports.origin(callee.name);
  const namespace = imports.origin(callee.namespace);
  if (namespace?.imported === '*' && isDtoSource(namespace.source)) return { source: namespace.source, imported: callee.name };
  return imports.member(callee.namespace, callee.name) ?? (namespace?.imported === '*' ? { source: namespace.source, imported: callee.name } : undefined);
}

/** Whether a decorator comes from class-validator, class-transformer or Toolwright's DTO helpers. */
export function isDtoDecorator(decorator: TSESTree.Decorator, imports: FileImports): boolean {
  const callee = decoratorCallee(decorator);
  if (!callee) return false;
  if (callee.namespace === undefined) return imports.dtoDecorator(callee.name);
  return imports.dtoDecorator(callee.namespace) || isDtoSource(imports.member(callee.namespace, callee.name)?.source);
}

/** The call of a decorator (`@Param('w')`), or undefined for one written without a call (`@Param`, mid-edit). */
export function decoratorCall(decorator: TSESTree.Decorator): TSESTree.CallExpression | undefined {
  return decorator.expression.type === 'CallExpression' ? decorator.expression : undefined;
}

/** An expression without the type assertions around it: `{ ... } as const`, `{ ... } satisfies ParamOptions`. */
function unwrapped(node: TSESTree.Node | undefined): TSESTree.Node | undefined {
  while (node && (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression' || node.type === 'TSNonNullExpression')) node = node.expression;
  return node;
}

/** The object literal passed as argument `index` of a decorator call, if there is one. */
export function objectArgument(decorator: TSESTree.Decorator, index: number): TSESTree.ObjectExpression | undefined {
  const argument = unwrapped(decoratorCall(decorator)?.arguments[index]);
  return argument?.type === 'ObjectExpression' ? argument : undefined;
}

/**
 * Whether argument `index` of a decorator call is there but cannot be read from the source:
 * a variable (`@Param('w', opts)`), or an object literal with a spread or a computed key. A
 * rule cannot tell what such options say, so it says nothing rather than guess.
 */
export function optionsUnreadable(decorator: TSESTree.Decorator, index: number): boolean {
  const argument = decoratorCall(decorator)?.arguments[index];
  if (argument === undefined) return false;
  const object = objectArgument(decorator, index);
  return !object || object.properties.some((p) => p.type !== 'Property' || p.computed);
}

/** The property `key` of an object literal (not computed, not spread). */
export function propertyOf(object: TSESTree.ObjectExpression | undefined, key: string): TSESTree.Property | undefined {
  for (const p of object?.properties ?? []) {
    if (p.type === 'Property' && !p.computed && ((p.key.type === 'Identifier' && p.key.name === key) || (p.key.type === 'Literal' && p.key.value === key))) return p;
  }
  return undefined;
}
