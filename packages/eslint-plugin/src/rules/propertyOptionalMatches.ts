import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import * as ts from 'typescript';
import { baseClasses, keyName, type ClassNode } from '../baseClasses';
import { createRule } from '../createRule';
import { decoratorOrigin, isDtoDecorator, isDtoSource, readImports, type FileImports, type Origin } from '../imports';

/**
 * What a decorator does to whether the schema requires its property, as Toolwright's build
 * decides it (packages/core/src/schema/propertySchema.ts, `isRequired`): a property with a
 * class-validator decorator is required unless one of them is @IsOptional() or @ValidateIf()
 * (`conditionalValidation`); @Allow() and @ValidatePromise() accept a missing value and make
 * nothing required. `@Property({ default })`, class-transformer's decorators and no decorator at
 * all say nothing of it (a `default` is only documented: the build does not make it optional).
 */
type Effect = 'optional' | 'passes' | 'requires' | 'none' | 'unknown';

/** Decorators of Toolwright's DTO entry points (`@toolwright/core`, `@toolwright/core/dto`) that are not class-validator's. */
const NOT_VALIDATION = new Set(['Property', 'Type', 'Expose', 'Exclude', 'Transform']);

function effectOf(origin: Origin | undefined): Effect {
  if (!origin || !isDtoSource(origin.source) || origin.imported === '*') return 'unknown';
  if (origin.source === 'class-transformer' || NOT_VALIDATION.has(origin.imported)) return 'none';
  if (origin.imported === 'IsOptional' || origin.imported === 'ValidateIf') return 'optional';
  if (origin.imported === 'Allow' || origin.imported === 'ValidatePromise') return 'passes';
  return 'requires';
}

/** Whether a type annotation is a union with `undefined` among its members (`number | undefined`). */
function unionWithUndefined(annotation: TSESTree.TypeNode | undefined): boolean {
  return annotation?.type === 'TSUnionType' && annotation.types.some((t) => t.type === 'TSUndefinedKeyword' || unionWithUndefined(t));
}

/**
 * The properties a constructor always assigns (`this.q = ''` among its own statements): like an
 * initial value, they stand when a call leaves them out, since Toolwright builds a DTO with `new`.
 */
function assignedInConstructor(node: ClassNode, text: (node: TSESTree.Node) => string): Set<string> {
  const names = new Set<string>();
  const constructor = node.body.body.find((m): m is TSESTree.MethodDefinition => m.type === 'MethodDefinition' && m.kind === 'constructor');
  for (const statement of constructor?.value.body?.body ?? []) {
    if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression' || statement.expression.operator !== '=') continue;
    const target = statement.expression.left;
    if (target.type !== 'MemberExpression' || target.object.type !== 'ThisExpression') continue;
    if (!target.computed && target.property.type === 'Identifier') names.add(target.property.name);
    else if (target.property.type === 'Literal') names.add(String(target.property.value));
    else names.add(text(target.property));
  }
  return names;
}

/**
 * TypeScript's `?` (and `| undefined`) leave no trace at run time: a DTO property with a
 * class-validator decorator is required in the tool's schema unless @IsOptional() (or
 * @ValidateIf()) says otherwise, so `page?: number` with only @IsInt() refuses every call
 * without `page`. And the reverse: @IsOptional() on a property typed as always present lets
 * `undefined` in. A property a base class declares too is read with the base's decorators
 * (class-validator applies them to the subclass); one with a decorator the rule cannot place
 * (declared in the file, or a base it cannot read) is left alone rather than guessed at.
 */
export const propertyOptionalMatches = createRule({
  name: 'property-optional-matches',
  meta: {
    type: 'problem',
    fixable: 'code',
    docs: { description: 'A DTO property is optional in the schema exactly when it is in TypeScript: `?` and `| undefined` are invisible at run time' },
    messages: {
      questionMark:
        "'{{name}}' of the DTO {{dto}} is optional in TypeScript (`?`), but Toolwright cannot see that: without @IsOptional() it is required in the schema, and a call without it is refused ('{{name}}: is required'). Fix: add @IsOptional(), or remove the `?` if it must always be sent.",
      undefinedType:
        "'{{name}}' of the DTO {{dto}} admits undefined in TypeScript (`{{type}}`), but Toolwright cannot see that: without @IsOptional() it is required in the schema, and a call without it is refused ('{{name}}: is required'). Fix: add @IsOptional(), or remove `| undefined` if it must always be sent.",
      notTyped:
        "'{{name}}' of the DTO {{dto}} has @IsOptional(), so it is undefined when a call leaves it out, but its type does not admit undefined. Fix: declare it `{{name}}?: ...` (or give it an initial value), or remove @IsOptional() if it must always be sent.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    let imports: FileImports;
    const source = context.sourceCode;
    const text = (node: TSESTree.Node) => source.getText(node);
    const services = source.parserServices;
    const typed = services?.program ? (services as ParserServicesWithTypeInformation) : undefined;
    const options = typed?.program.getCompilerOptions();
    // Without strictNullChecks every type admits undefined: the reverse mistake cannot be made.
    const strictNulls = options ? (options.strictNullChecks ?? options.strict ?? false) : true;
    const classes = new Map<string, ClassNode>();
    let program: TSESTree.Program;

    /** Whether the property's type, as the checker reads it (through aliases), is a union with undefined, and whether it admits undefined at all. */
    const typeFlags = (property: TSESTree.PropertyDefinition): { undefinedMember: boolean; admits: boolean } | undefined => {
      if (!typed) return undefined;
      const checker = typed.program.getTypeChecker();
      const type = checker.getTypeAtLocation(typed.esTreeNodeToTSNodeMap.get(property.key));
      const parts = type.isUnion() ? type.types : [type];
      const undefinedMember = type.isUnion() && parts.some((t) => t.flags & ts.TypeFlags.Undefined);
      return { undefinedMember, admits: parts.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) };
    };

    /** What the name `name` is bound to where `node` is: a module-level import, nothing (free to import), or something else. */
    const resolves = (node: TSESTree.Node, name: string): 'import' | 'free' | 'taken' => {
      for (let scope: TSESLint.Scope.Scope | null = source.getScope(node); scope; scope = scope.upper) {
        const variable = scope.set.get(name);
        if (variable) return variable.defs.some((d) => d.type === 'ImportBinding') && scope.upper?.type === 'global' ? 'import' : 'taken';
      }
      return 'free';
    };

    /** The fix that adds `@IsOptional()` before the property's decorators, importing it where that is plain. */
    const addIsOptional = (property: TSESTree.PropertyDefinition): TSESLint.ReportFixFunction | undefined => {
      const first = property.decorators[0];
      if (!first) return undefined;
      const validators = (s: string) => s === 'class-validator' || s === '@toolwright/core/dto';
      const statements = program.body.filter((s): s is TSESTree.ImportDeclaration => s.type === 'ImportDeclaration' && s.importKind !== 'type');
      // Already imported, under any name: `IsOptional`, `Maybe`, `cv` (`cv.IsOptional`).
      for (const statement of statements) {
        for (const spec of statement.specifiers) {
          const origin = imports.origin(spec.local.name);
          if (spec.type === 'ImportSpecifier' && spec.importKind === 'type') continue;
          if (resolves(property, spec.local.name) !== 'import') continue;
          if (origin?.imported === 'IsOptional' && isDtoSource(origin.source) && origin.source !== 'class-transformer') {
            return (fixer) => fixer.insertTextBefore(first, `@${spec.local.name}() `);
          }
          if (spec.type === 'ImportNamespaceSpecifier' && validators(statement.source.value)) {
            return (fixer) => fixer.insertTextBefore(first, `@${spec.local.name}.IsOptional() `);
          }
        }
      }
      // Added to the file's import of class-validator (or @toolwright/core/dto), unless the name is taken.
      const into = statements.find((s) => validators(s.source.value) && s.specifiers.length > 0 && s.specifiers.every((spec) => spec.type === 'ImportSpecifier'));
      if (!into || resolves(property, 'IsOptional') !== 'free') return undefined;
      const last = into.specifiers[into.specifiers.length - 1];
      return (fixer) => [fixer.insertTextAfter(last, ', IsOptional'), fixer.insertTextBefore(first, '@IsOptional() ')];
    };

    const check = (node: ClassNode) => {
      const properties = node.body.body.filter((m): m is TSESTree.PropertyDefinition => m.type === 'PropertyDefinition' && !m.static && m.key.type !== 'PrivateIdentifier');
      if (properties.length === 0) return;
      const bases = node.superClass ? baseClasses(node, imports, classes, text, typed) : undefined;
      if (!properties.some((p) => p.decorators.some((d) => isDtoDecorator(d, imports))) && !bases?.dto()) return;
      const dto = node.id?.name ?? 'class';
      const assigned = assignedInConstructor(node, text);
      for (const property of properties) {
        const name = keyName(property, text);
        // class-validator applies a base class's decorators of the property to the subclass.
        const inherited = bases && bases.has(name) !== false ? bases.decorators(name) : [];
        if (!inherited) continue;
        const origins = [...property.decorators.map((d) => decoratorOrigin(d, imports)), ...inherited];
        const effects = origins.map(effectOf);
        // A decorator of the project's own may wrap @IsOptional(); class-transformer's @Exclude() takes the property out of the input.
        if (effects.includes('unknown') || origins.some((o) => o?.source === 'class-transformer' && o.imported === 'Exclude')) continue;
        const optional = effects.includes('optional');
        const required = !optional && effects.includes('requires');
        const annotation = property.typeAnnotation?.typeAnnotation;
        const data = { name, dto };
        if (required) {
          if (property.optional) {
            context.report({ node: property.key, messageId: 'questionMark', data, fix: addIsOptional(property) });
          } else if (
            unionWithUndefined(annotation) ||
            (strictNulls && annotation && annotation.type !== 'TSAnyKeyword' && annotation.type !== 'TSUnknownKeyword' && typeFlags(property)?.undefinedMember)
          ) {
            context.report({ node: property.key, messageId: 'undefinedType', data: { ...data, type: annotation ? text(annotation) : '' }, fix: addIsOptional(property) });
          }
          continue;
        }
        // @ValidateIf() is left out here: the condition may be what keeps the property present.
        const isOptional = origins.some((o) => o?.imported === 'IsOptional');
        if (!isOptional || property.optional || property.value || assigned.has(name) || !annotation || !strictNulls) continue;
        const admits = unionWithUndefined(annotation) || ['TSAnyKeyword', 'TSUnknownKeyword', 'TSUndefinedKeyword', 'TSVoidKeyword'].includes(annotation.type) || typeFlags(property)?.admits;
        if (!admits) context.report({ node: property.key, messageId: 'notTyped', data });
      }
    };
    return {
      Program(node) {
        program = node;
        imports = readImports(node, services);
        for (const statement of node.body) {
          const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
          if (declaration?.type === 'ClassDeclaration' && declaration.id) classes.set(declaration.id.name, declaration);
        }
      },
      ClassDeclaration: check,
      ClassExpression: check,
    };
  },
});
