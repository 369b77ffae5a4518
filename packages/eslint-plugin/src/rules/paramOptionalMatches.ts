import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { createRule } from '../createRule';
import { decoratorCall, objectArgument, optionsUnreadable, propertyOf, readImports, toolwrightDecorator, type FileImports } from '../imports';

type Parameter = TSESTree.Parameter;

/** The identifier a decorated parameter binds (through a default value or a parameter property). */
function bindingOf(param: Parameter): { id: TSESTree.Identifier; initializer?: TSESTree.Expression } | undefined {
  const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
  if (inner.type === 'Identifier') return { id: inner };
  if (inner.type === 'AssignmentPattern' && inner.left.type === 'Identifier') return { id: inner.left, initializer: inner.right };
  return undefined;
}

/** Whether the annotation admits undefined (`T | undefined`, `any`, `unknown`), read from the source. */
function admitsUndefined(id: TSESTree.Identifier): boolean {
  const annotation = id.typeAnnotation?.typeAnnotation;
  if (!annotation) return true;
  const admits = (t: TSESTree.TypeNode): boolean => t.type === 'TSUndefinedKeyword' || t.type === 'TSAnyKeyword' || t.type === 'TSUnknownKeyword' || (t.type === 'TSUnionType' && t.types.some(admits));
  return admits(annotation);
}

/**
 * TypeScript's `?` (and a default value) leave no trace at run time: a `@Param` without
 * `optional: true` or `default` is a required argument whatever the signature says. And the
 * reverse: `optional: true` on a parameter typed as always present lets `undefined` in.
 */
export const paramOptionalMatches = createRule({
  name: 'param-optional-matches',
  meta: {
    type: 'problem',
    fixable: 'code',
    docs: { description: "A `@Param` is optional exactly when its parameter is: TypeScript's `?` and default values are invisible at run time" },
    messages: {
      questionMark: "'{{name}}' is optional in TypeScript (`?`), but Toolwright cannot see that: the argument is required. Fix: @Param('{{argument}}', { optional: true }) (or `default: ...`).",
      initializer:
        "'{{name}}' has a default value in TypeScript, but Toolwright cannot see it: the argument is required. Fix: give the default to Toolwright instead, @Param('{{argument}}', { default: {{value}} }), and drop the initializer.",
      notTyped:
        "'{{name}}' is declared `optional: true`, so the method receives undefined when the argument is absent, but its type does not admit undefined. Fix: declare it `{{name}}?: ...`, or give a `default`.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    let imports: FileImports;
    const source = context.sourceCode;
    return {
      Program(program) {
        imports = readImports(program, context.sourceCode.parserServices);
      },
      Decorator(decorator) {
        if (toolwrightDecorator(decorator, imports) !== 'Param') return;
        const call = decoratorCall(decorator);
        const binding = bindingOf(decorator.parent as Parameter);
        // `@Param` without a call (mid-edit) is the compiler's to report; options in a variable
        // or behind a spread cannot be read here.
        if (!call || !binding || optionsUnreadable(decorator, 1)) return;
        const options = objectArgument(decorator, 1);
        const optional = propertyOf(options, 'optional');
        // `optional: flag`: only the run time knows what it says.
        if (optional && !(optional.value.type === 'Literal' && typeof optional.value.value === 'boolean')) return;
        const declaredOptional = optional?.value.type === 'Literal' && optional.value.value === true;
        const hasDefault = propertyOf(options, 'default') !== undefined;
        const first = call.arguments[0];
        const argument = first?.type === 'Literal' ? String(first.value) : binding.id.name;
        const data = { name: binding.id.name, argument };
        const makeOptional = (fixer: TSESLint.RuleFixer) => {
          // `optional: false` is turned around rather than given a second `optional` key.
          if (optional) return fixer.replaceText(optional.value, 'true');
          if (options) {
            const open = source.getFirstToken(options)!;
            return fixer.insertTextAfter(open, options.properties.length > 0 ? ' optional: true,' : ' optional: true ');
          }
          if (call.arguments.length === 1) return fixer.insertTextAfter(call.arguments[0], ', { optional: true }');
          return null;
        };
        if (binding.initializer) {
          if (!declaredOptional && !hasDefault) {
            context.report({ node: binding.id, messageId: 'initializer', data: { ...data, value: source.getText(binding.initializer) } });
          }
          return;
        }
        if (binding.id.optional && !declaredOptional && !hasDefault) {
          context.report({ node: binding.id, messageId: 'questionMark', data, fix: call.arguments.length <= 2 ? makeOptional : undefined });
          return;
        }
        if (declaredOptional && !binding.id.optional && !hasDefault && !admitsUndefined(binding.id)) {
          context.report({ node: binding.id, messageId: 'notTyped', data });
        }
      },
    };
  },
});
