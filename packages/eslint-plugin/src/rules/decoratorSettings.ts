import { ESLintUtils } from '@typescript-eslint/utils';
import { relative } from 'node:path';
import { createRule } from '../createRule';
import { readImports, toolwrightDecorator, type FileImports } from '../imports';

/**
 * Toolwright reads legacy decorators and the type metadata they emit. A file that applies a
 * Toolwright decorator (imported directly, renamed, through a namespace or through a barrel of
 * the project, which may be compiled by another tsconfig) and is compiled by a tsconfig without
 * `experimentalDecorators` (TypeScript then compiles standard decorators) or
 * `emitDecoratorMetadata` (no types) is flagged once, naming the tsconfig: at the statement
 * that imports Toolwright, or at the first Toolwright decorator when there is none (a barrel
 * imported as a namespace). A file that applies none (a barrel, a script importing a type or
 * ToolError) is left alone. Without type information the rule does nothing.
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
    // Without type information (no projectService, or typescript-eslint's disableTypeChecked)
    // there is no tsconfig to read: the rule does nothing rather than stop the lint run.
    const services = ESLintUtils.getParserServices(context, true);
    if (!services.program) return {};
    const options = services.program.getCompilerOptions();
    const missing = [!options.experimentalDecorators && '`experimentalDecorators`', !options.emitDecoratorMetadata && '`emitDecoratorMetadata`'].filter(Boolean).join(' and ');
    const file = typeof options.configFilePath === 'string' ? options.configFilePath : undefined;
    const config = file ? relative(context.cwd, file) || file : 'no tsconfig.json found for it';
    // With the settings on there is nothing to look for, and barrels are not resolved.
    if (!missing) return {};
    let imports: FileImports;
    let reported = false;
    return {
      Program(program) {
        imports = readImports(program, services);
      },
      // Only a file that applies a Toolwright decorator needs the settings; one that imports a
      // type or ToolError (or re-exports Toolwright, as a barrel does) compiles fine without them.
      Decorator(decorator) {
        if (reported || toolwrightDecorator(decorator, imports) === undefined) return;
        reported = true;
        context.report({ node: imports.toolwrightDeclarations[0] ?? decorator, messageId: 'missing', data: { missing, config } });
      },
    };
  },
});
