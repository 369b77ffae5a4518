import type { ParserServicesWithTypeInformation, TSESTree } from '@typescript-eslint/utils';
import { baseClasses, keyName, type ClassNode } from '../baseClasses';
import { createRule } from '../createRule';
import { isDtoDecorator, readImports, type FileImports } from '../imports';

/**
 * A DTO property without a decorator leaves no trace at run time: class-validator never
 * hears of it, so it is missing from the schema and a value sent for it is refused as an
 * unknown property. A class is taken as a DTO when any of its properties, or of its base
 * classes', carries a class-validator, class-transformer or Toolwright `@Property` decorator
 * (class-validator reads a parent's decorators for a subclass). A field of a subclass that
 * re-states a property a base class has (`declare kind: 'book'`, `override limit? = 100`) is
 * left alone: the base's decorators apply to it. One that no base class has is flagged. The
 * base classes are read with the type checker, through generic classes and mixins; without
 * type information, only a parent declared in the same file can be read. A `declare` or `override` field over
 * a base that cannot be read (declared elsewhere without type information, or typed `any`) is
 * left alone rather than guessed at. A base declared only in a .d.ts (a compiled package) has
 * lost its decorators, so it does not make its subclasses DTOs.
 */
export const dtoPropertyDecorated = createRule({
  name: 'dto-property-decorated',
  meta: {
    type: 'problem',
    docs: { description: 'Every property of a DTO class has a decorator, or it is left out of the schema and refused as unknown' },
    messages: {
      undecorated:
        "'{{name}}' of the DTO {{dto}} has no decorator, so Toolwright never sees it: it is missing from the schema and a value sent for it is refused as an unknown property. Fix: add a class-validator decorator (@IsString(), @IsOptional() ...), @ValidateNested() with @Type(() => Child) for a nested DTO, or @Allow() to accept it as it is.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    let imports: FileImports;
    const text = (node: TSESTree.Node) => context.sourceCode.getText(node);
    const services = context.sourceCode.parserServices;
    const typed = services?.program ? (services as ParserServicesWithTypeInformation) : undefined;
    /** The classes of the file by name, for reading a parent without type information. */
    const classes = new Map<string, ClassNode>();
    const check = (node: ClassNode) => {
      const properties = node.body.body.filter((m): m is TSESTree.PropertyDefinition => m.type === 'PropertyDefinition' && !m.static && m.key.type !== 'PrivateIdentifier');
      if (properties.length === 0) return;
      const bases = node.superClass ? baseClasses(node, imports, classes, text, typed) : undefined;
      if (!properties.some((p) => p.decorators.some((d) => isDtoDecorator(d, imports))) && !bases?.dto()) return;
      const dto = node.id?.name ?? 'class';
      for (const property of properties) {
        if (property.decorators.length > 0) continue;
        const name = keyName(property, text);
        // A property a base class has keeps the base's decorators (class-validator reads a
        // parent's): `declare a: 'x'` only narrows its type, `override a = 2` only its default.
        // A `declare` or `override` field over a base that cannot be read (no type information, a
        // parent declared elsewhere, a base typed `any`) is not guessed at: either keyword says the
        // base has the property (`override` is checked by tsc under noImplicitOverride).
        const inherited = bases?.has(name);
        if (inherited === true || ((property.declare || property.override) && bases && inherited === undefined)) continue;
        context.report({ node: property.key, messageId: 'undecorated', data: { name, dto } });
      }
    };
    return {
      Program(program) {
        imports = readImports(program, context.sourceCode.parserServices);
        for (const statement of program.body) {
          const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
          if (declaration?.type === 'ClassDeclaration' && declaration.id) classes.set(declaration.id.name, declaration);
        }
      },
      ClassDeclaration: check,
      ClassExpression: check,
    };
  },
});
