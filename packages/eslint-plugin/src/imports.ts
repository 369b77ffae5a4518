import type { TSESTree } from '@typescript-eslint/utils';

/** Where decorators come from that make a class a DTO: validation, transformation and Toolwright's docs. */
const DTO_SOURCES = new Set(['class-validator', 'class-transformer', '@toolwright/core', '@toolwright/core/dto']);

/** The names a file imports, by local name: where from and under which exported name (`*` for a namespace). */
export interface FileImports {
  /** The exported name of Toolwright's core a local name stands for, if it is one. */
  toolwright(local: string): string | undefined;
  /** Whether a local name comes from a package whose decorators make a class a DTO. */
  dtoDecorator(local: string): boolean;
  /** The import declarations of `@toolwright/core`. */
  readonly toolwrightDeclarations: readonly TSESTree.ImportDeclaration[];
}

export function readImports(program: TSESTree.Program): FileImports {
  const byLocal = new Map<string, { source: string; imported: string }>();
  const toolwrightDeclarations: TSESTree.ImportDeclaration[] = [];
  for (const statement of program.body) {
    if (statement.type !== 'ImportDeclaration') continue;
    const source = statement.source.value;
    if (source === '@toolwright/core') toolwrightDeclarations.push(statement);
    for (const spec of statement.specifiers) {
      const imported = spec.type === 'ImportSpecifier' ? (spec.imported.type === 'Identifier' ? spec.imported.name : spec.imported.value) : spec.type === 'ImportDefaultSpecifier' ? 'default' : '*';
      byLocal.set(spec.local.name, { source, imported });
    }
  }
  return {
    toolwright: (local) => {
      const found = byLocal.get(local);
      return found?.source === '@toolwright/core' ? found.imported : undefined;
    },
    dtoDecorator: (local) => DTO_SOURCES.has(byLocal.get(local)?.source ?? ''),
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
  if (callee.namespace !== undefined) return imports.toolwright(callee.namespace) === '*' ? callee.name : undefined;
  return imports.toolwright(callee.name);
}

/** Whether a decorator comes from class-validator, class-transformer or Toolwright's DTO helpers. */
export function isDtoDecorator(decorator: TSESTree.Decorator, imports: FileImports): boolean {
  const callee = decoratorCallee(decorator);
  return callee !== undefined && imports.dtoDecorator(callee.namespace ?? callee.name);
}

/** The object literal passed as argument `index` of a decorator call, if there is one. */
export function objectArgument(decorator: TSESTree.Decorator, index: number): TSESTree.ObjectExpression | undefined {
  const call = decorator.expression;
  if (call.type !== 'CallExpression') return undefined;
  const argument = call.arguments[index];
  return argument?.type === 'ObjectExpression' ? argument : undefined;
}

/** The property `key` of an object literal (not computed, not spread). */
export function propertyOf(object: TSESTree.ObjectExpression | undefined, key: string): TSESTree.Property | undefined {
  for (const p of object?.properties ?? []) {
    if (p.type === 'Property' && !p.computed && ((p.key.type === 'Identifier' && p.key.name === key) || (p.key.type === 'Literal' && p.key.value === key))) return p;
  }
  return undefined;
}
