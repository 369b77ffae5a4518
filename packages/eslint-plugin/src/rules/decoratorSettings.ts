import { ESLintUtils } from '@typescript-eslint/utils';
import { relative } from 'node:path';
import { createRule } from '../createRule';
import { readImports } from '../imports';

/**
 * Toolwright reads legacy decorators and the type metadata they emit. A file that imports
 * Toolwright (or re-exports it, as a barrel does) and is compiled by a tsconfig without
 * `experimentalDecorators` (TypeScript then compiles standard decorators) or
 * `emitDecoratorMetadata` (no types) is flagged where it names Toolwright, naming the tsconfig.
 */
export const decoratorSettings = createRule({
  name: 'decorator-settings',
  meta: {
    type: 'problem',
    docs: { description: 'The tsconfig compiling a Toolwright file turns on `experimentalDecorators` and `emitDecoratorMetadata`', requiresTypeChecking: true },
    messages: {
      missing:
        'This file is compiled without {{missing}} ({{config}}), but Toolwright needs legacy decorators and the type metadata they emit. Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in its compilerOptions.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const services = ESLintUtils.getParserServices(context);
    return {
      Program(program) {
        const [first] = readImports(program).toolwrightDeclarations;
        if (!first) return;
        const options = services.program.getCompilerOptions();
        const missing = [!options.experimentalDecorators && '`experimentalDecorators`', !options.emitDecoratorMetadata && '`emitDecoratorMetadata`'].filter(Boolean).join(' and ');
        if (!missing) return;
        const file = typeof options.configFilePath === 'string' ? options.configFilePath : undefined;
        const config = file ? relative(context.cwd, file) || file : 'no tsconfig.json found for it';
        context.report({ node: first, messageId: 'missing', data: { missing, config } });
      },
    };
  },
});
