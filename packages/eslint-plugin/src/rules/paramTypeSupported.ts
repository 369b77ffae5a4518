import { AST_NODE_TYPES, ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import * as ts from 'typescript';
import { createRule } from '../createRule';
import { decoratorCall, objectArgument, optionsUnreadable, propertyOf, readImports, toolwrightDecorator, type FileImports } from '../imports';

type Verdict = { kind: 'ok' } | { kind: 'array'; element: string } | { kind: 'unknown'; what: string } | { kind: 'literals'; emitted: 'String' | 'Number' | 'Boolean'; fix: string };

const LITERAL = ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral;
/** The one constructor TypeScript emits for all of these literals, if they share one. */
const EMITTED = [
  [ts.TypeFlags.StringLiteral, 'String'],
  [ts.TypeFlags.NumberLiteral, 'Number'],
  [ts.TypeFlags.BooleanLiteral, 'Boolean'],
] as const;

const EMPTY_NODES = new Set<string>([AST_NODE_TYPES.TSNullKeyword, AST_NODE_TYPES.TSUndefinedKeyword, AST_NODE_TYPES.TSVoidKeyword]);

/** What the decorator metadata of a parameter of this type tells Toolwright at run time. */
function judge(members: readonly ts.Type[], checker: ts.TypeChecker): Verdict {
  // Literal types (an enum is a union of its members) are emitted as their primitive's constructor.
  if (members.every((t) => t.flags & LITERAL)) {
    const emitted = EMITTED.find(([flag]) => members.every((t) => t.flags & flag))?.[1];
    if (emitted === 'Boolean' && members.length === 2) return { kind: 'ok' }; // boolean
    if (emitted) return { kind: 'literals', emitted, fix: literalsFix(members, checker) };
  }
  if (members.length > 1) return { kind: 'unknown', what: `the union \`${members.map((t) => checker.typeToString(t)).join(' | ')}\`` };
  const type = members[0];
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { kind: 'unknown', what: type.flags & ts.TypeFlags.Any ? '`any`' : '`unknown`' };
  if (type.flags & ts.TypeFlags.TypeParameter) return { kind: 'unknown', what: `the type parameter \`${checker.typeToString(type)}\`` };
  if (type.isUnion()) return judge(type.types, checker);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const element = checker.isArrayType(type) ? checker.getTypeArguments(type as ts.TypeReference)[0] : undefined;
    return { kind: 'array', element: element ? elementName(element, checker) : 'String' };
  }
  if (type.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike)) return { kind: 'ok' };
  const symbol = type.getSymbol();
  // A class (a DTO) has a constructor at run time, which the metadata names. Of the built-ins
  // declared as an interface with a value of the same name, only Date is read (as a date-time
  // string); Map, Set, RegExp, Promise, Function and the like are refused.
  if (type.flags & ts.TypeFlags.Object && symbol && (symbol.flags & ts.SymbolFlags.Class || isGlobalDate(symbol))) return { kind: 'ok' };
  const what = symbol && symbol.flags & ts.SymbolFlags.Interface ? `the interface \`${symbol.name}\`` : `the type \`${checker.typeToString(type)}\``;
  return { kind: 'unknown', what };
}

function isGlobalDate(symbol: ts.Symbol): boolean {
  return symbol.name === 'Date' && !!(symbol.flags & ts.SymbolFlags.Interface) && !!(symbol.flags & ts.SymbolFlags.Variable);
}

/** The option that lists these literal types: the enum itself when they are all of its members. */
function literalsFix(members: readonly ts.Type[], checker: ts.TypeChecker): string {
  if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return `schema: { type: 'boolean', const: ${checker.typeToString(members[0])} }`;
  const declarations = new Set(members.map((t) => t.getSymbol()?.valueDeclaration?.parent));
  const [only] = declarations;
  if (declarations.size === 1 && only && ts.isEnumDeclaration(only) && only.members.length === members.length) return `enum: ${only.name.text}`;
  const value = (t: ts.Type) => (t.isStringLiteral() && !(t.flags & ts.TypeFlags.EnumLiteral) ? `'${t.value.replace(/[\\']/g, '\\$&')}'` : checker.typeToString(t));
  return `enum: [${members.map(value).join(', ')}]`;
}

/** The option that states the type of a verdict's parameter, for a fix that must also say `nullable`. */
function stated(verdict: Verdict, rest: readonly ts.Type[], checker: ts.TypeChecker): string {
  if (verdict.kind === 'literals') return verdict.fix;
  if (verdict.kind === 'array') return `type: () => [${verdict.element}]`;
  if (verdict.kind === 'ok') return `type: () => ${rest.length === 1 ? elementName(rest[0], checker) : 'Boolean'}`; // only `boolean` is a fine union
  return 'schema: {...}';
}

/**
 * The annotation and the option to suggest for a parameter without an annotation, from the
 * type TypeScript infers from its default value: `n = 3` -> `n: number` or `type: () => Number`.
 * An empty array (`never[]`) or one of `any` asks for its element type; a type the build cannot
 * read from a constructor (an object literal) asks for a schema.
 */
function unannotatedFix(name: string, inferred: ts.Type, checker: ts.TypeChecker): { annotated: string; stated: string } {
  const vague = (t: ts.Type) => !!(t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never));
  if (vague(inferred)) return { annotated: `${name}: <its type>`, stated: 'type: () => <its type>' };
  if (checker.isArrayType(inferred)) {
    const element = (inferred as ts.TypeReference).typeArguments?.[0];
    if (!element || vague(element)) return { annotated: `${name}: <element type>[]`, stated: 'type: () => [<element type>]' };
  }
  const members = inferred.isUnion() ? inferred.types : [inferred];
  return { annotated: `${name}: ${checker.typeToString(inferred)}`, stated: stated(judge(members, checker), members, checker) };
}

function elementName(type: ts.Type, checker: ts.TypeChecker): string {
  if (type.flags & ts.TypeFlags.StringLike) return 'String';
  if (type.flags & ts.TypeFlags.NumberLike) return 'Number';
  if (type.flags & ts.TypeFlags.BooleanLike) return 'Boolean';
  const symbol = type.getSymbol();
  return symbol && symbol.flags & ts.SymbolFlags.Class ? symbol.name : checker.typeToString(type);
}

/**
 * Parameter types the build refuses or cannot check, flagged in the editor with the fix the
 * `BuildError` gives: decorator metadata records only a constructor, so arrays lose their
 * element type; unions, interfaces, type literals, generics, `any` and `unknown` all become
 * `Object`, and so (with strictNullChecks) does a union with `null` or `undefined`; `bigint`,
 * `symbol` and built-ins other than `Date` are refused, and so is a parameter without a type
 * annotation (emitted as `Object` even with a default value); enums and literal types become
 * `String`, `Number` or `Boolean` (any value of it passes). test/paramTypeVerdicts.test.ts
 * holds the rule to the build's verdicts. Without type information the rule does nothing.
 */
export const paramTypeSupported = createRule({
  name: 'param-type-supported',
  meta: {
    type: 'problem',
    docs: { description: 'A `@Param` type Toolwright can read at run time, or an explicit `type`, `enum`, `nullable` or `schema` option', requiresTypeChecking: true },
    messages: {
      array:
        "'{{name}}' is an array, but its element type cannot be known at run time (TypeScript emits only `Array`). Fix: give the element type: @Param('{{argument}}', { type: () => [{{element}}] }).",
      unknown:
        "'{{name}}' has a type that cannot be inferred at run time ({{what}}: TypeScript emits `Object`). Fix: state it: @Param('{{argument}}', { type: () => String }), `enum: [...]` for literal unions, `nullable: true` for `| null`, or `schema: {...}`.",
      literals: "'{{name}}' has the literal type `{{type}}`, but TypeScript emits only `{{emitted}}`, so any {{emittedLower}} would pass. Fix: @Param('{{argument}}', { {{fix}} }).",
      nullable: "'{{name}}' admits null, but `| null` leaves no trace at run time, so null is refused. Fix: @Param('{{argument}}', { nullable: true }).",
      unannotated:
        "'{{name}}' has no type annotation, so TypeScript emits `Object` for it (a default value does not count) and the build cannot know its type. Fix: annotate it (`{{annotated}}`), or state it: @Param('{{argument}}', { {{stated}} }).",
      emptyUnion: "'{{name}}' admits {{empty}}, so TypeScript (with strictNullChecks) emits `Object` and the build cannot know its type. Fix: {{fix}}.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    // Without type information (no projectService, or typescript-eslint's disableTypeChecked)
    // no type can be read: the rule does nothing rather than stop the lint run.
    const services = ESLintUtils.getParserServices(context, true);
    if (!services.program) return {};
    const checker = services.program.getTypeChecker();
    const compilerOptions = services.program.getCompilerOptions();
    const strict = compilerOptions.strictNullChecks ?? compilerOptions.strict ?? false;
    let imports: FileImports;
    return {
      Program(program) {
        imports = readImports(program, context.sourceCode.parserServices);
      },
      Decorator(decorator) {
        if (toolwrightDecorator(decorator, imports) !== 'Param') return;
        const call = decoratorCall(decorator);
        // `@Param` without a call (mid-edit) is the compiler's to report; options in a variable
        // or behind a spread may state the type, and cannot be read here.
        if (!call || optionsUnreadable(decorator, 1)) return;
        const param = decorator.parent as TSESTree.Parameter;
        const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
        const id = inner.type === 'AssignmentPattern' ? inner.left : inner;
        if (id.type !== 'Identifier') return;
        const options = objectArgument(decorator, 1);
        if (propertyOf(options, 'schema')) return;
        const argument = call.arguments[0]?.type === 'Literal' ? String(call.arguments[0].value) : id.name;
        const data = { name: id.name, argument };
        const explicit = propertyOf(options, 'type') || propertyOf(options, 'enum');
        if (!id.typeAnnotation) {
          // TypeScript emits `Object` for a parameter without an annotation, whatever its default value.
          if (explicit) return;
          const inferred = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(id));
          return context.report({ node: id, messageId: 'unannotated', data: { ...data, ...unannotatedFix(id.name, inferred, checker) } });
        }
        const annotation = id.typeAnnotation.typeAnnotation;
        const type = checker.getTypeFromTypeNode(services.esTreeNodeToTSNodeMap.get(annotation) as unknown as ts.TypeNode);
        // The type as written, without its `| null` and `| undefined`.
        const written = (annotation.type === 'TSUnionType' ? annotation.types.filter((t) => !EMPTY_NODES.has(t.type)) : [annotation]).map((t) => context.sourceCode.getText(t)).join(' | ');
        const members = type.isUnion() ? type.types : [type];
        const hasNull = members.some((t) => t.flags & ts.TypeFlags.Null);
        const rest = members.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
        const verdict = rest.length > 0 ? judge(rest, checker) : undefined;
        // With strictNullChecks, TypeScript emits `Object` for a union with `null` or `undefined`.
        if (!explicit && strict && verdict && rest.length < members.length) {
          const fix = hasNull
            ? `@Param('${argument}', { ${stated(verdict, rest, checker)}, nullable: true })`
            : `drop \`| undefined\` and write \`${id.name}?: ${written}\` with @Param('${argument}', { optional: true })`;
          return context.report({ node: id, messageId: 'emptyUnion', data: { ...data, empty: hasNull ? 'null' : 'undefined', fix } });
        }
        if (hasNull && !propertyOf(options, 'nullable')) context.report({ node: id, messageId: 'nullable', data });
        if (explicit || !verdict) return;
        if (verdict.kind === 'array') context.report({ node: id, messageId: 'array', data: { ...data, element: verdict.element } });
        else if (verdict.kind === 'unknown') context.report({ node: id, messageId: 'unknown', data: { ...data, what: verdict.what } });
        else if (verdict.kind === 'literals')
          context.report({
            node: id,
            messageId: 'literals',
            data: { ...data, type: written, emitted: verdict.emitted, emittedLower: verdict.emitted.toLowerCase(), fix: verdict.fix },
          });
      },
    };
  },
});
