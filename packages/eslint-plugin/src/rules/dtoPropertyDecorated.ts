import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from '../createRule';
import { isDtoDecorator, readImports, type FileImports } from '../imports';

/**
 * A DTO property without a decorator leaves no trace at run time: class-validator never
 * hears of it, so it is missing from the schema and a value sent for it is refused as an
 * unknown property. A class is taken as a DTO when any of its properties carries a
 * class-validator, class-transformer or Toolwright `@Property` decorator. A `declare` field of
 * a subclass is left alone: it retypes an inherited property and has no run-time trace.
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
    const check = (node: TSESTree.ClassDeclaration | TSESTree.ClassExpression) => {
      const properties = node.body.body.filter((m): m is TSESTree.PropertyDefinition => m.type === 'PropertyDefinition' && !m.static && m.key.type !== 'PrivateIdentifier');
      if (!properties.some((p) => p.decorators.some((d) => isDtoDecorator(d, imports)))) return;
      const dto = node.id?.name ?? 'class';
      for (const property of properties) {
        if (property.decorators.length > 0) continue;
        // `declare a: 'x'` in a subclass only narrows the type of a property it inherits, whose
        // decorators apply (class-validator reads a parent's); it emits nothing of its own.
        if (property.declare && node.superClass) continue;
        const name = property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : context.sourceCode.getText(property.key);
        context.report({ node: property.key, messageId: 'undecorated', data: { name, dto } });
      }
    };
    return {
      Program(program) {
        imports = readImports(program, context.sourceCode.parserServices);
      },
      ClassDeclaration: check,
      ClassExpression: check,
    };
  },
});
