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

/** The base classes of a class as the type checker reads them, and whether every one could be read. */
interface TypedBases {
  types: ts.Type[];
  complete: boolean;
}

/**
 * Every base class type of a class, nearest first, read with the type checker. A generic base
 * (`extends Middle<string>`) is walked through the class it instantiates; a mixin (`extends
 * Timestamped(Base)`, an intersection) through each of its parts. A base typed `any` (a
 * JavaScript package without types, `extends (X as any)`) cannot be read: `complete` is false.
 */
function typedBases(node: ClassNode, services: ParserServicesWithTypeInformation): TypedBases {
  const checker = services.program.getTypeChecker();
  // The class's symbol, from its instance type (a declaration) or its constructor's (an expression).
  const symbol = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node)).getSymbol();
  const types: ts.Type[] = [];
  let complete = true;
  const seen = new Set<ts.Type>();
  const next: ts.Type[] = symbol ? [checker.getDeclaredTypeOfSymbol(symbol)] : [];
  while (next.length > 0) {
    const type = next.shift()!;
    // An instantiated generic class has the base types of the class it instantiates.
    const declared = type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference ? (type as ts.TypeReference).target : type;
    if (!declared.isClassOrInterface()) continue;
    for (const base of checker.getBaseTypes(declared)) {
      for (const part of base.isIntersection() ? base.types : [base]) {
        if (part.flags & ts.TypeFlags.Any) complete = false;
        if (seen.has(part)) continue;
        seen.add(part);
        types.push(part);
        next.push(part);
      }
    }
  }
  return { types, complete };
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
 * declared; but a base declared only in a .d.ts (a compiled package) has lost its decorators, so
 * it never makes a class a DTO. Without, only a parent declared in the same file (under the
 * name `extends` gives), and its own parent there, can be read.
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
    const { types, complete } = typedBases(node, services);
    return {
      has: (name) => (types.some((base) => !(base.flags & ts.TypeFlags.Any) && checker.getPropertyOfType(base, name) !== undefined) ? true : complete ? false : undefined),
      dto: () =>
        types.some((base) =>
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
