import { ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import { relative } from 'node:path';
import { createRule } from '../createRule';
import { readImports, toolwrightDecorator, type FileImports } from '../imports';

/**
 * Toolwright reads legacy decorators and the type metadata they emit. A file that imports
 * Toolwright (directly or through a barrel of the project, which may be compiled by another
 * tsconfig), or re-exports it as a barrel does, and is compiled by a tsconfig without
 * `experimentalDecorators` (TypeScript then compiles standard decorators) or
 * `emitDecoratorMetadata` (no types) is flagged where it names Toolwright, naming the tsconfig.
 * A file that reaches Toolwright only through a barrel imported as a namespace is flagged at
 * its first Toolwright decorator.
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
    const options = services.program.getCompilerOptions();
    const missing = [!options.experimentalDecorators && '`experimentalDecorators`', !options.emitDecoratorMetadata && '`emitDecoratorMetadata`'].filter(Boolean).join(' and ');
    const file = typeof options.configFilePath === 'string' ? options.configFilePath : undefined;
    const config = file ? relative(context.cwd, file) || file : 'no tsconfig.json found for it';
    // With the settings on there is nothing to look for, and barrels are not resolved.
    if (!missing) return {};
    let imports: FileImports;
    let reported = false;
    const report = (node: TSESTree.Node) => {
      reported = true;
      context.report({ node, messageId: 'missing', data: { missing, config } });
    };
    return {
      Program(program) {
        imports = readImports(program, services);
        const [first] = imports.toolwrightDeclarations;
        if (first) report(first);
      },
      Decorator(decorator) {
        if (!reported && toolwrightDecorator(decorator, imports) !== undefined) report(decorator);
      },
    };
  },
});
