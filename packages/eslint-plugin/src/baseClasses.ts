import type { ParserServicesWithTypeInformation, TSESTree } from '@typescript-eslint/utils';
import * as ts from 'typescript';
import { isDtoDecorator, isDtoSource, type FileImports } from './imports';
import { declaredIn } from './reexported';

/** A class of the file being linted. */
export type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** What a class inherits, as far as it can be read. */
export interface BaseClasses {
  /** Whether a base class has the property `name`; undefined when a base cannot be read. */
  has(name: string): boolean | undefined;
  /** Whether a base class has a property with a class-validator, class-transformer or Toolwright decorator. */
  dto(): boolean;
}

/** The name of a class property as written (`page`, `'page'`, or the source of a computed key). */
export function keyName(property: TSESTree.PropertyDefinition, text: (node: TSESTree.Node) => string): string {
  return property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : text(property.key);
}

/** Every base class type of a class, nearest first, read with the type checker. */
function typedBases(node: ClassNode, services: ParserServicesWithTypeInformation): ts.Type[] {
  const checker = services.program.getTypeChecker();
  // The class's symbol, from its instance type (a declaration) or its constructor's (an expression).
  const symbol = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node)).getSymbol();
  const bases: ts.Type[] = [];
  const seen = new Set<ts.Type>();
  const next: ts.Type[] = symbol ? [checker.getDeclaredTypeOfSymbol(symbol)] : [];
  while (next.length > 0) {
    const type = next.shift()!;
    if (!type.isClassOrInterface()) continue;
    for (const base of checker.getBaseTypes(type)) {
      if (seen.has(base)) continue;
      seen.add(base);
      bases.push(base);
      next.push(base);
    }
  }
  return bases;
}

/** Whether a decorator of a declaration elsewhere comes from a package whose decorators make a DTO. */
function typedDtoDecorator(decorator: ts.Decorator, checker: ts.TypeChecker): boolean {
  let expression = decorator.expression;
  if (ts.isCallExpression(expression)) expression = expression.expression;
  const name = ts.isPropertyAccessExpression(expression) ? expression.name : ts.isIdentifier(expression) ? expression : undefined;
  return name !== undefined && isDtoSource(declaredIn(checker.getSymbolAtLocation(name), checker)?.source);
}

/**
 * What a class inherits. With type information every base class is read, wherever it is
 * declared. Without, only a parent declared in the same file (under the name `extends` gives),
 * and its own parent there, can be read.
 */
export function baseClasses(
  node: ClassNode,
  imports: FileImports,
  classes: ReadonlyMap<string, ClassNode>,
  text: (node: TSESTree.Node) => string,
  services?: ParserServicesWithTypeInformation,
): BaseClasses {
  if (services) {
    const checker = services.program.getTypeChecker();
    const bases = typedBases(node, services);
    return {
      has: (name) => bases.some((base) => checker.getPropertyOfType(base, name) !== undefined),
      dto: () =>
        bases.some((base) =>
          (base.getSymbol()?.declarations ?? []).some(
            (declaration) => ts.isClassLike(declaration) && declaration.members.some((m) => ts.isPropertyDeclaration(m) && (ts.getDecorators(m) ?? []).some((d) => typedDtoDecorator(d, checker))),
          ),
        ),
    };
  }
  const chain: ClassNode[] = [];
  let complete = true;
  for (let current: ClassNode | undefined = node; current?.superClass;) {
    const parent: ClassNode | undefined = current.superClass.type === 'Identifier' ? classes.get(current.superClass.name) : undefined;
    if (!parent || chain.includes(parent)) {
      complete = false;
      break;
    }
    chain.push(parent);
    current = parent;
  }
  const properties = chain.flatMap((c) => c.body.body.filter((m): m is TSESTree.PropertyDefinition => m.type === 'PropertyDefinition' && !m.static));
  return {
    has: (name) => (properties.some((p) => keyName(p, text) === name) ? true : complete ? false : undefined),
    dto: () => properties.some((p) => p.decorators.some((d) => isDtoDecorator(d, imports))),
  };
}
