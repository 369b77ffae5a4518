import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from '../createRule';
import { readImports, toolwrightDecorator, type FileImports } from '../imports';

const MEMBER_DECORATORS = new Set(['Tool', 'Resource', 'Prompt']);
const PIPELINE_DECORATORS = new Set(['UseMiddleware', 'UseGuards']);

/**
 * Whether a constructor parameter asks the container for a service: typed with a named type
 * and without a default value (a default, a function type or a primitive is not looked up by
 * type, and a hand-written container passes such values itself).
 */
function injects(param: TSESTree.Parameter): boolean {
  const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
  if (inner.type !== 'Identifier') return false;
  return inner.typeAnnotation?.typeAnnotation.type === 'TSTypeReference';
}

/**
 * TypeScript emits a constructor's parameter types (`design:paramtypes`) only for a class
 * that has a class decorator. A tool, middleware or guard class that injects services
 * through its constructor without one cannot be built by the container. The build refuses
 * it at startup; this says so in the editor.
 */
export const injectableClassDecorated = createRule({
  name: 'injectable-class-decorated',
  meta: {
    type: 'problem',
    docs: { description: 'A tool, middleware or guard class that injects services through its constructor has a class decorator' },
    messages: {
      undecorated:
        "{{name}} injects services through its constructor but has no class decorator, and TypeScript emits constructor types only for a decorated class, so the container cannot tell what to inject. Fix: mark it @Service() (typedi), or @Scoped('request') / @Scoped('session').",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    let imports: FileImports;
    /** Class names passed to @UseMiddleware / @UseGuards in this file. */
    const pipelineClasses = new Set<string>();
    const candidates: (TSESTree.ClassDeclaration | TSESTree.ClassExpression)[] = [];
    const visit = (node: TSESTree.ClassDeclaration | TSESTree.ClassExpression) => {
      if (node.decorators.length === 0) candidates.push(node);
    };
    return {
      Program(program) {
        imports = readImports(program, context.sourceCode.parserServices);
      },
      Decorator(decorator) {
        const name = toolwrightDecorator(decorator, imports);
        if (!name || !PIPELINE_DECORATORS.has(name) || decorator.expression.type !== 'CallExpression') return;
        for (const argument of decorator.expression.arguments) if (argument.type === 'Identifier') pipelineClasses.add(argument.name);
      },
      ClassDeclaration: visit,
      ClassExpression: visit,
      'Program:exit'() {
        for (const node of candidates) {
          const ctor = node.body.body.find((m): m is TSESTree.MethodDefinition => m.type === 'MethodDefinition' && m.kind === 'constructor');
          if (!ctor || !ctor.value.params.some(injects)) continue;
          const served = node.body.body.some((m) => m.type === 'MethodDefinition' && m.decorators.some((d) => MEMBER_DECORATORS.has(toolwrightDecorator(d, imports) ?? '')));
          const inPipeline = node.id !== null && pipelineClasses.has(node.id.name);
          if (!served && !inPipeline) continue;
          context.report({ node: node.id ?? ctor, messageId: 'undecorated', data: { name: node.id?.name ?? 'This class' } });
        }
      },
    };
  },
});
