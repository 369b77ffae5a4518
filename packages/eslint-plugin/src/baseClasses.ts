import type { ParserServicesWithTypeInformation, TSESTree } from '@typescript-eslint/utils';
import * as ts from 'typescript';
import { decoratorOrigin, isDtoDecorator, isDtoSource, type FileImports, type Origin } from './imports';
import { declaredIn } from './reexported';

/** A class of the file being linted. */
export type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** What a class inherits, as far as it can be read. */
export interface BaseClasses {
  /** Whether a base class has the property `name`; undefined when a base cannot be read. */
  has(name: string): boolean | undefined;
  /** Whether a base class has a property with a class-validator, class-transformer or Toolwright decorator. */
  dto(): boolean;
  /**
   * Where the decorators of the property `name` in the base classes are declared (undefined for
   * one that cannot be resolved); undefined as a whole when a base cannot be read (typed `any`,
   * a parent declared elsewhere without type information, one known only from a .d.ts, which has
   * lost its decorators).
   */
  decorators(name: string): (Origin | undefined)[] | undefined;
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

/** The name of a class member as declared (`page`, `'page'`), undefined for a computed or private one. */
function memberName(member: ts.ClassElement): string | undefined {
  return member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isNumericLiteral(member.name)) ? member.name.text : undefined;
}

/** Where a decorator of a declaration elsewhere is declared, read with the type checker. */
function typedDecoratorOrigin(decorator: ts.Decorator, checker: ts.TypeChecker): Origin | undefined {
  let expression = decorator.expression;
  if (ts.isCallExpression(expression)) expression = expression.expression;
  const name = ts.isPropertyAccessExpression(expression) ? expression.name : ts.isIdentifier(expression) ? expression : undefined;
  return name && declaredIn(checker.getSymbolAtLocation(name), checker);
}

/** The decorators of the property `name` in the classes of `types`, as `BaseClasses.decorators` gives them. */
function typedDecorators(types: readonly ts.Type[], name: string, checker: ts.TypeChecker): (Origin | undefined)[] | undefined {
  const found: (Origin | undefined)[] = [];
  for (const base of types) {
    for (const declaration of base.getSymbol()?.declarations ?? []) {
      if (!ts.isClassLike(declaration)) continue;
      for (const member of declaration.members) {
        if (memberName(member) !== name) continue;
        // A .d.ts keeps no decorators; an accessor's or a method's are not read here.
        if (!ts.isPropertyDeclaration(member) || declaration.getSourceFile().isDeclarationFile) return undefined;
        for (const decorator of ts.getDecorators(member) ?? []) found.push(typedDecoratorOrigin(decorator, checker));
      }
    }
  }
  return found;
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
      decorators: (name) => (complete ? typedDecorators(types, name, checker) : undefined),
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
    decorators: (name) => (complete ? properties.filter((p) => keyName(p, text) === name).flatMap((p) => p.decorators.map((d) => decoratorOrigin(d, imports))) : undefined),
  };
}
