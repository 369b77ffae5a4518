import { ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import * as ts from 'typescript';
import { createRule } from '../createRule';
import { objectArgument, propertyOf, readImports, toolwrightDecorator, type FileImports } from '../imports';

type Verdict = { kind: 'ok' } | { kind: 'array'; element: string } | { kind: 'unknown'; what: string } | { kind: 'literals'; emitted: 'String' | 'Number' };

/** What the decorator metadata of a parameter of this type tells Toolwright at run time. */
function judge(members: readonly ts.Type[], checker: ts.TypeChecker): Verdict {
  if (members.length > 1) {
    if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { kind: 'ok' };
    if (members.every((t) => t.flags & ts.TypeFlags.StringLiteral)) return { kind: 'literals', emitted: 'String' };
    if (members.every((t) => t.flags & ts.TypeFlags.NumberLiteral)) return { kind: 'literals', emitted: 'Number' };
    return { kind: 'unknown', what: `the union \`${members.map((t) => checker.typeToString(t)).join(' | ')}\`` };
  }
  const type = members[0];
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { kind: 'unknown', what: type.flags & ts.TypeFlags.Any ? '`any`' : '`unknown`' };
  if (type.flags & ts.TypeFlags.TypeParameter) return { kind: 'unknown', what: `the type parameter \`${checker.typeToString(type)}\`` };
  // An enum type is a union of its members; one member alone is a literal.
  if (type.isUnion()) return judge(type.types, checker);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const element = checker.isArrayType(type) ? checker.getTypeArguments(type as ts.TypeReference)[0] : undefined;
    return { kind: 'array', element: element ? elementName(element, checker) : 'String' };
  }
  if (type.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike)) return { kind: 'ok' };
  if (type.flags & ts.TypeFlags.Object) {
    const symbol = type.getSymbol();
    // A class (a DTO) has a constructor at run time, which the metadata names; so has a
    // built-in declared as an interface with a value of the same name (Date).
    if (symbol && (symbol.flags & ts.SymbolFlags.Class || (symbol.flags & ts.SymbolFlags.Interface && symbol.flags & ts.SymbolFlags.Variable))) return { kind: 'ok' };
    const what = symbol && symbol.flags & ts.SymbolFlags.Interface ? `the interface \`${symbol.name}\`` : `the type \`${checker.typeToString(type)}\``;
    return { kind: 'unknown', what };
  }
  return { kind: 'ok' };
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
 * element type, and unions, interfaces, type literals, generics, `any` and `unknown` all
 * become `Object`; literal unions become `String` or `Number` (any value passes), and
 * `| null` leaves no trace (null is refused).
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
      literals: "'{{name}}' is a union of literals, but TypeScript emits only `{{emitted}}`, so any {{emittedLower}} would pass. Fix: list the values: @Param('{{argument}}', { enum: [...] }).",
      nullable: "'{{name}}' admits null, but `| null` leaves no trace at run time, so null is refused. Fix: @Param('{{argument}}', { nullable: true }).",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const services = ESLintUtils.getParserServices(context);
    const checker = services.program.getTypeChecker();
    let imports: FileImports;
    return {
      Program(program) {
        imports = readImports(program);
      },
      Decorator(decorator) {
        if (toolwrightDecorator(decorator, imports) !== 'Param') return;
        const param = decorator.parent as TSESTree.Parameter;
        const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
        const id = inner.type === 'AssignmentPattern' ? inner.left : inner;
        if (id.type !== 'Identifier' || !id.typeAnnotation) return;
        const options = objectArgument(decorator, 1);
        if (propertyOf(options, 'schema')) return;
        const call = decorator.expression as TSESTree.CallExpression;
        const argument = call.arguments[0]?.type === 'Literal' ? String(call.arguments[0].value) : id.name;
        const data = { name: id.name, argument };
        const type = checker.getTypeFromTypeNode(services.esTreeNodeToTSNodeMap.get(id.typeAnnotation.typeAnnotation) as unknown as ts.TypeNode);
        const members = type.isUnion() ? type.types : [type];
        const hasNull = members.some((t) => t.flags & ts.TypeFlags.Null);
        if (hasNull && !propertyOf(options, 'nullable')) context.report({ node: id, messageId: 'nullable', data });
        if (propertyOf(options, 'type') || propertyOf(options, 'enum')) return;
        const rest = members.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
        if (rest.length === 0) return;
        const verdict = judge(rest, checker);
        if (verdict.kind === 'array') context.report({ node: id, messageId: 'array', data: { ...data, element: verdict.element } });
        else if (verdict.kind === 'unknown') context.report({ node: id, messageId: 'unknown', data: { ...data, what: verdict.what } });
        else if (verdict.kind === 'literals')
          context.report({ node: id, messageId: 'literals', data: { ...data, emitted: verdict.emitted, emittedLower: verdict.emitted === 'String' ? 'string' : 'number' } });
      },
    };
  },
});
