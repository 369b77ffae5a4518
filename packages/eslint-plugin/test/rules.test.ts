import { decoratorSettings } from '../src/rules/decoratorSettings';
import { dtoPropertyDecorated } from '../src/rules/dtoPropertyDecorated';
import { injectableClassDecorated } from '../src/rules/injectableClassDecorated';
import { paramOptionalMatches } from '../src/rules/paramOptionalMatches';
import { paramTypeSupported } from '../src/rules/paramTypeSupported';
import { propertyOptionalMatches } from '../src/rules/propertyOptionalMatches';
import { loose, ruleTester, untypedRuleTester } from './ruleTester';

const imports = `import { Param, Tool, Scoped, FromCall, UseMiddleware, UseGuards, Property } from '@toolwright/core';
import { IsString, IsOptional, IsInt } from 'class-validator';
import { Type } from 'class-transformer';
import { Inject, Service } from 'typedi';
`;

ruleTester().run('dto-property-decorated', loose(dtoPropertyDecorated), {
  valid: [
    `${imports} class OrderInput { @IsString() sku!: string; @IsOptional() @IsInt() quantity?: number; }`,
    // A service with a property-injected dependency is not a DTO.
    `${imports} @Service() class Orders { @Inject() db!: unknown; private cache = new Map(); }`,
    `${imports} class Plain { a = 1; b!: string; }`,
    `${imports} class WithStatic { @IsString() sku!: string; static count = 0; #secret = 1; }`,
    // A subclass that re-states an inherited, decorated property keeps the parent's decorators.
    `${imports} class Page { @IsOptional() @IsInt() limit?: number = 20; } class BigPage extends Page { override limit? = 100; }`,
  ],
  invalid: [
    {
      code: `${imports} class OrderInput { @IsString() sku!: string; discountCode!: string; }`,
      errors: [{ messageId: 'undecorated', data: { name: 'discountCode', dto: 'OrderInput' }, line: 5 }],
    },
    {
      code: `${imports} class Report { @Property({ description: 'x' }) @IsString() title!: string; pages?: number; 'quoted-name'!: string; }`,
      errors: [
        { messageId: 'undecorated', data: { name: 'pages', dto: 'Report' } },
        { messageId: 'undecorated', data: { name: 'quoted-name', dto: 'Report' } },
      ],
    },
  ],
});

// Without type information only a parent declared in the same file can be read: a `declare`
// field is flagged when that parent chain is known not to have it, and left alone otherwise.
untypedRuleTester().run('dto-property-decorated (no type information)', loose(dtoPropertyDecorated), {
  valid: [
    `${imports} class Search { @IsString() kind!: string; } class BookSearch extends Search { declare kind: 'book'; }`,
    `${imports} class Search { @IsString() kind!: string; } class Mid extends Search {} class BookSearch extends Mid { declare kind: 'book'; }`,
    // A field that only changes the default value of a property the parent has.
    `${imports} class Page { @IsOptional() @IsInt() limit?: number = 20; } class BigPage extends Page { override limit? = 100; }`,
    // The parent is declared elsewhere: not guessed at.
    `${imports} import { Search } from './search'; class BookSearch extends Search { @IsString() query!: string; declare kind: 'book'; }`,
    `${imports} import { Page } from './page'; class BigPage extends Page { @IsString() query!: string; override limit? = 100; }`,
  ],
  invalid: [
    {
      code: `${imports} class Search { @IsString() kind!: string; } class PagedSearch extends Search { declare page: number; }`,
      errors: [{ messageId: 'undecorated', data: { name: 'page', dto: 'PagedSearch' } }],
    },
  ],
});

ruleTester().run('param-optional-matches', loose(paramOptionalMatches), {
  valid: [
    `${imports} class T { @Tool() a(@Param('w', { optional: true }) w?: string) {} }`,
    `${imports} class T { @Tool() a(@Param('w', { default: 'main' }) w: string) {} }`,
    `${imports} class T { @Tool() a(@Param('w') w: string) {} }`,
    `${imports} class T { @Tool() a(@Param('w', { optional: true }) w: string | undefined) {} }`,
    `${imports} class T { @Tool() a(@Param('w', { default: 'main' }) w = 'main') {} }`,
    // Another package's Param is not Toolwright's.
    `import { Param } from 'elsewhere'; class T { a(@Param('w') w?: string) {} }`,
  ],
  invalid: [
    {
      code: `${imports} class T { @Tool() a(@Param('warehouse') warehouse?: string) {} }`,
      output: `${imports} class T { @Tool() a(@Param('warehouse', { optional: true }) warehouse?: string) {} }`,
      errors: [{ messageId: 'questionMark', data: { name: 'warehouse', argument: 'warehouse' } }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('w', { description: 'Which' }) w?: string) {} }`,
      output: `${imports} class T { @Tool() a(@Param('w', { optional: true, description: 'Which' }) w?: string) {} }`,
      errors: [{ messageId: 'questionMark' }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('w', {}) w?: string) {} }`,
      output: `${imports} class T { @Tool() a(@Param('w', { optional: true }) w?: string) {} }`,
      errors: [{ messageId: 'questionMark' }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('w') w = 'main') {} }`,
      errors: [{ messageId: 'initializer', data: { name: 'w', argument: 'w', value: "'main'" } }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('w', { optional: true }) w: string) {} }`,
      errors: [{ messageId: 'notTyped', data: { name: 'w', argument: 'w' } }],
    },
  ],
});

const validators = `import { IsOptional, IsInt, IsString, Max, Allow, ValidateIf, ValidateNested } from 'class-validator';
import { Type, Exclude } from 'class-transformer';
import { Property } from '@toolwright/core';
`;

ruleTester().run('property-optional-matches', loose(propertyOptionalMatches), {
  valid: [
    `${validators} class ListInput { @IsOptional() @IsInt() page?: number; @IsInt() size!: number; @IsOptional() @IsInt() offset!: number | undefined; }`,
    // @ValidateIf makes a property optional as @IsOptional does; its condition may keep it present, so `!` is left alone.
    `${validators} class Shipping { @IsString() kind!: string; @ValidateIf((o: Shipping) => o.kind === 'post') @IsString() zip?: string; @ValidateIf((o: Shipping) => o.kind === 'home') @IsString() street!: string; }`,
    // @Allow accepts a missing value: nothing makes it required.
    `${validators} class Raw { @IsString() id!: string; @Allow() extra?: unknown; }`,
    // An initial value stands when a call leaves the property out (Toolwright builds the instance with \`new\`).
    `${validators} class Page { @IsOptional() @IsInt() @Max(100) limit: number = 20; @IsOptional() data!: unknown; @IsOptional() anything!: any; }`,
    // No class-validator decorator: not in the schema at all (the build and dto-property-decorated say so).
    `${validators} class Doc { @IsString() id!: string; @Property({ description: 'A note' }) note?: string; @Type(() => Date) at?: Date; }`,
    // Left out of the input by @Exclude.
    `${validators} class Internal { @IsString() id!: string; @Exclude() @IsInt() secret?: number; }`,
    // A decorator the rule cannot place may wrap @IsOptional().
    `${validators} import { OptionalInt } from './decorators'; class Mixed { @OptionalInt() @IsInt() page?: number; }`,
    // Another package's IsInt is not class-validator's.
    `import { IsInt } from 'elsewhere'; class NotDto { @IsInt() page?: number; }`,
    // Renamed, through a namespace, and from @toolwright/core/dto.
    `import { IsOptional as Maybe, IsInt as Int } from 'class-validator'; class A { @Maybe() @Int() page?: number; }`,
    `import * as cv from 'class-validator'; class A { @cv.IsOptional() @cv.IsInt() page?: number; }`,
    `import { IsOptional, IsInt } from '@toolwright/core/dto'; class A { @IsOptional() @IsInt() page?: number; }`,
    // A base class's @IsOptional() applies to the subclass (class-validator reads a parent's decorators).
    `${validators} class Page { @IsOptional() @IsInt() limit?: number = 20; } class BigPage extends Page { override limit? = 100; } class SmallPage extends Page { @Max(10) override limit?: number = 10; }`,
  ],
  invalid: [
    {
      // The first-hour probe: `page` was required in the tool's input schema.
      code: `${validators} class ListInput { @IsInt() page?: number; }`,
      output: `${validators} class ListInput { @IsOptional() @IsInt() page?: number; }`,
      errors: [{ messageId: 'questionMark', data: { name: 'page', dto: 'ListInput' }, line: 4 }],
    },
    {
      // @Property's `default` only documents: the property stays required.
      code: `${validators} class ListInput { @Property({ default: 1 }) @IsInt() page?: number = 1; }`,
      output: `${validators} class ListInput { @IsOptional() @Property({ default: 1 }) @IsInt() page?: number = 1; }`,
      errors: [{ messageId: 'questionMark', data: { name: 'page', dto: 'ListInput' } }],
    },
    {
      // IsOptional is added to the import of class-validator; a second property is fixed on the next pass.
      code: `import { IsInt, IsString } from 'class-validator';\nclass Search {\n  @IsString() q?: string;\n  @IsInt()\n  page?: number;\n}`,
      output: [
        `import { IsInt, IsString, IsOptional } from 'class-validator';\nclass Search {\n  @IsOptional() @IsString() q?: string;\n  @IsInt()\n  page?: number;\n}`,
        `import { IsInt, IsString, IsOptional } from 'class-validator';\nclass Search {\n  @IsOptional() @IsString() q?: string;\n  @IsOptional() @IsInt()\n  page?: number;\n}`,
      ],
      errors: [
        { messageId: 'questionMark', data: { name: 'q', dto: 'Search' }, line: 3 },
        { messageId: 'questionMark', data: { name: 'page', dto: 'Search' }, line: 5 },
      ],
    },
    {
      code: `import { IsOptional as Maybe, IsInt as Int } from 'class-validator'; class A { @Int() page?: number; }`,
      output: `import { IsOptional as Maybe, IsInt as Int } from 'class-validator'; class A { @Maybe() @Int() page?: number; }`,
      errors: [{ messageId: 'questionMark', data: { name: 'page', dto: 'A' } }],
    },
    {
      code: `import * as cv from 'class-validator'; class A { @cv.IsInt() page?: number; }`,
      output: `import * as cv from 'class-validator'; class A { @cv.IsOptional() @cv.IsInt() page?: number; }`,
      errors: [{ messageId: 'questionMark' }],
    },
    {
      code: `import { IsInt } from '@toolwright/core/dto'; class A { @IsInt() page?: number; }`,
      output: `import { IsInt, IsOptional } from '@toolwright/core/dto'; class A { @IsOptional() @IsInt() page?: number; }`,
      errors: [{ messageId: 'questionMark' }],
    },
    {
      // The name IsOptional is taken: reported, not fixed.
      code: `import { IsInt } from 'class-validator'; const IsOptional = 1; class A { @IsInt() page?: number = IsOptional; }`,
      errors: [{ messageId: 'questionMark' }],
    },
    {
      // `| undefined`, written or through an alias (read with type information).
      code: `${validators} type Maybe<T> = T | undefined; class A { @IsInt() page!: number | undefined; @IsString() q!: Maybe<string>; }`,
      output: `${validators} type Maybe<T> = T | undefined; class A { @IsOptional() @IsInt() page!: number | undefined; @IsOptional() @IsString() q!: Maybe<string>; }`,
      errors: [
        { messageId: 'undefinedType', data: { name: 'page', dto: 'A', type: 'number | undefined' } },
        { messageId: 'undefinedType', data: { name: 'q', dto: 'A', type: 'Maybe<string>' } },
      ],
    },
    {
      // The reverse: @IsOptional() on a property typed as always present (one the constructor assigns stands, as an initial value does).
      code: `${validators} class A { @IsOptional() @IsInt() page!: number; @IsOptional() @IsString() q: string; constructor() { this.q = ''; } }`,
      errors: [{ messageId: 'notTyped', data: { name: 'page', dto: 'A' } }],
    },
    {
      // Nested DTOs: the child's properties and the nesting property itself (@ValidateNested is required too).
      code: `${validators} class Address { @IsString() city!: string; @IsString() zip?: string; } class OrderInput { @ValidateNested() @Type(() => Address) address?: Address; }`,
      output: `${validators} class Address { @IsString() city!: string; @IsOptional() @IsString() zip?: string; } class OrderInput { @IsOptional() @ValidateNested() @Type(() => Address) address?: Address; }`,
      errors: [
        { messageId: 'questionMark', data: { name: 'zip', dto: 'Address' } },
        { messageId: 'questionMark', data: { name: 'address', dto: 'OrderInput' } },
      ],
    },
    {
      // A class declared in a function (a mixin), and an inherited @IsOptional() that a `declare` field types as present.
      code: `${validators} type Ctor = new (...args: any[]) => object; function Stamped<B extends Ctor>(B: B) { return class extends B { @IsInt() at?: number; }; } class Page { @IsOptional() @IsInt() limit?: number; } class Fixed extends Page { declare limit: number; }`,
      output: `${validators} type Ctor = new (...args: any[]) => object; function Stamped<B extends Ctor>(B: B) { return class extends B { @IsOptional() @IsInt() at?: number; }; } class Page { @IsOptional() @IsInt() limit?: number; } class Fixed extends Page { declare limit: number; }`,
      errors: [
        { messageId: 'questionMark', data: { name: 'at', dto: 'class' } },
        { messageId: 'notTyped', data: { name: 'limit', dto: 'Fixed' } },
      ],
    },
  ],
});

// Without type information: same-file parents are read, a parent declared elsewhere is not guessed at.
untypedRuleTester().run('property-optional-matches (no type information)', loose(propertyOptionalMatches), {
  valid: [
    `${validators} class Page { @IsOptional() @IsInt() limit?: number = 20; } class BigPage extends Page { override limit? = 100; }`,
    `${validators} import { Page } from './page'; class BigPage extends Page { @Max(10) override limit?: number = 10; }`,
  ],
  invalid: [
    {
      code: `${validators} class ListInput { @IsInt() page?: number; @IsOptional() @IsInt() size!: number; }`,
      output: `${validators} class ListInput { @IsOptional() @IsInt() page?: number; @IsOptional() @IsInt() size!: number; }`,
      errors: [{ messageId: 'questionMark' }, { messageId: 'notTyped' }],
    },
  ],
});

ruleTester().run('param-type-supported', loose(paramTypeSupported), {
  valid: [
    `${imports} class T { @Tool() a(@Param('a') a: string, @Param('b') b: number, @Param('c') c: boolean, @Param('d') d: Date) {} }`,
    `${imports} class Filter { @IsString() q!: string; } class T { @Tool() a(@Param('f') f: Filter) {} }`,
    `${imports} class T { @Tool() a(@Param('xs', { type: () => [String] }) xs: string[]) {} }`,
    `${imports} class T { @Tool() a(@Param('u', { schema: { anyOf: [{ type: 'string' }, { type: 'number' }] } }) u: string | number) {} }`,
    `${imports} class T { @Tool() a(@Param('m', { enum: ['a', 'b'] }) m: 'a' | 'b') {} }`,
    `${imports} class T { @Tool() a(@Param('w', { optional: true }) w?: string) {} }`,
    `${imports} class T { @Tool() a(@Param('n', { type: () => String, nullable: true }) n: string | null) {} }`,
    `${imports} enum Color { Red = 'red' } class T { @Tool() a(@Param('c', { enum: Color }) c: Color, @Param('b') b: boolean, @Param('o', { optional: true }) o?: boolean) {} }`,
    `${imports} class T { @Tool() a(@Param('w', { type: () => String, default: 'main' }) w = 'main') {} }`,
  ],
  invalid: [
    {
      code: `${imports} class T { @Tool() a(@Param('xs') xs: string[]) {} }`,
      errors: [{ messageId: 'array', data: { name: 'xs', argument: 'xs', element: 'String' } }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('u') u: string | number) {} }`,
      errors: [{ messageId: 'unknown', data: { name: 'u', argument: 'u', what: 'the union `string | number`' } }],
    },
    {
      code: `${imports} interface Where { city: string } class T { @Tool() a(@Param('w') w: Where, @Param('x') x: any, @Param('y') y: { a: 1 }) {} }`,
      errors: [
        { messageId: 'unknown', data: { name: 'w', argument: 'w', what: 'the interface `Where`' } },
        { messageId: 'unknown', data: { name: 'x', argument: 'x', what: '`any`' } },
        { messageId: 'unknown', data: { name: 'y', argument: 'y', what: 'the type `{ a: 1; }`' } },
      ],
    },
    {
      code: `${imports} class T<K> { @Tool() a(@Param('k') k: K) {} }`,
      errors: [{ messageId: 'unknown', data: { name: 'k', argument: 'k', what: 'the type parameter `K`' } }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('m') m: 'add' | 'subtract') {} }`,
      errors: [{ messageId: 'literals', data: { name: 'm', argument: 'm', type: "'add' | 'subtract'", emitted: 'String', emittedLower: 'string', fix: "enum: ['add', 'subtract']" } }],
    },
    {
      code: `${imports} enum Color { Red = 'red', Green = 'green' } enum Level { Low, High } class T { @Tool() a(@Param('c') c: Color, @Param('l') l: Level, @Param('r') r: Color.Red) {} }`,
      errors: [
        { messageId: 'literals', data: { name: 'c', argument: 'c', type: 'Color', emitted: 'String', emittedLower: 'string', fix: 'enum: Color' } },
        { messageId: 'literals', data: { name: 'l', argument: 'l', type: 'Level', emitted: 'Number', emittedLower: 'number', fix: 'enum: Level' } },
        { messageId: 'literals', data: { name: 'r', argument: 'r', type: 'Color.Red', emitted: 'String', emittedLower: 'string', fix: 'enum: [Color.Red]' } },
      ],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('b') b: true, @Param('m') m: "it's", @Param('n') n: 7) {} }`,
      errors: [
        { messageId: 'literals', data: { name: 'b', argument: 'b', type: 'true', emitted: 'Boolean', emittedLower: 'boolean', fix: "schema: { type: 'boolean', const: true }" } },
        { messageId: 'literals', data: { name: 'm', argument: 'm', type: '"it\'s"', emitted: 'String', emittedLower: 'string', fix: "enum: ['it\\'s']" } },
        { messageId: 'literals', data: { name: 'n', argument: 'n', type: '7', emitted: 'Number', emittedLower: 'number', fix: 'enum: [7]' } },
      ],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('b') b: bigint, @Param('s') s: symbol, @Param('m') m: Map<string, number>, @Param('f') f: Function) {} }`,
      errors: [
        { messageId: 'unknown', data: { name: 'b', argument: 'b', what: 'the type `bigint`' } },
        { messageId: 'unknown', data: { name: 's', argument: 's', what: 'the type `symbol`' } },
        { messageId: 'unknown', data: { name: 'm', argument: 'm', what: 'the interface `Map`' } },
        { messageId: 'unknown', data: { name: 'f', argument: 'f', what: 'the interface `Function`' } },
      ],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('n') n: string | null, @Param('u') u: number | undefined, @Param('x', { nullable: true }) x: string[] | null) {} }`,
      errors: [
        { messageId: 'emptyUnion', data: { name: 'n', argument: 'n', empty: 'null', fix: "@Param('n', { type: () => String, nullable: true })" } },
        { messageId: 'emptyUnion', data: { name: 'u', argument: 'u', empty: 'undefined', fix: "drop `| undefined` and write `u?: number` with @Param('u', { optional: true })" } },
        { messageId: 'emptyUnion', data: { name: 'x', argument: 'x', empty: 'null', fix: "@Param('x', { type: () => [String], nullable: true })" } },
      ],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('n', { type: () => String }) n: string | null) {} }`,
      errors: [{ messageId: 'nullable', data: { name: 'n', argument: 'n' } }],
    },
    {
      code: `${imports} class T { @Tool() a(@Param('w', { default: 'main' }) w = 'main', @Param('n', { default: 3 }) n = 3) {} }`,
      errors: [
        { messageId: 'unannotated', data: { name: 'w', argument: 'w', annotated: 'w: string', stated: 'type: () => String' } },
        { messageId: 'unannotated', data: { name: 'n', argument: 'n', annotated: 'n: number', stated: 'type: () => Number' } },
      ],
    },
    {
      // The suggestion is of the default value's type; an empty array asks for its element type.
      code: `${imports} class T { @Tool() a(@Param('on', { default: false }) on = false, @Param('tags', { default: [] }) tags = [], @Param('ids', { default: [1] }) ids = [1], @Param('o', { default: {} }) o = { a: 1 }) {} }`,
      errors: [
        { messageId: 'unannotated', data: { name: 'on', argument: 'on', annotated: 'on: boolean', stated: 'type: () => Boolean' } },
        { messageId: 'unannotated', data: { name: 'tags', argument: 'tags', annotated: 'tags: <element type>[]', stated: 'type: () => [<element type>]' } },
        { messageId: 'unannotated', data: { name: 'ids', argument: 'ids', annotated: 'ids: number[]', stated: 'type: () => [Number]' } },
        { messageId: 'unannotated', data: { name: 'o', argument: 'o', annotated: 'o: { a: number; }', stated: 'schema: {...}' } },
      ],
    },
  ],
});

ruleTester().run('injectable-class-decorated', loose(injectableClassDecorated), {
  valid: [
    `${imports} class Inventory {} @Service() class InventoryTools { constructor(readonly inventory: Inventory) {} @Tool() list() {} }`,
    `${imports} class InventoryTools { @Tool() list() {} }`,
    `${imports} class NotServed { constructor(readonly x: string) {} }`,
    // Values a container cannot look up by type: a default, a function, a primitive.
    `${imports} class Bookings {} class Trips { constructor(readonly bookings = new Bookings(), readonly app: () => unknown, readonly key: string) {} @Tool() a() {} }`,
  ],
  invalid: [
    {
      code: `${imports} class Inventory {} class InventoryTools { constructor(readonly inventory: Inventory) {} @Tool() list() {} }`,
      errors: [{ messageId: 'undecorated', data: { name: 'InventoryTools' } }],
    },
    {
      code: `${imports} class Quota {} class QuotaMiddleware { constructor(readonly quota: Quota) {} use() {} } @UseMiddleware(QuotaMiddleware) @Service() class Notes { @Tool() a() {} }`,
      errors: [{ messageId: 'undecorated', data: { name: 'QuotaMiddleware' } }],
    },
  ],
});

ruleTester().run('decorator-settings (on)', loose(decoratorSettings), {
  valid: [`${imports} class T { @Tool() a() {} }`, 'class NotToolwright {}'],
  invalid: [],
});

ruleTester('no-decorators').run('decorator-settings (off)', loose(decoratorSettings), {
  valid: [
    'class NotToolwright {}',
    // Only applying a decorator needs the settings: importing Toolwright, or re-exporting it as a
    // barrel does, compiles the same without them (a file using the barrel is flagged itself).
    `import { Tool, ToolError, type ToolContext } from '@toolwright/core';\nexport class T { a(ctx: ToolContext) { return new ToolError(String(ctx)); } }`,
    `export { Tool as ServedTool } from '@toolwright/core';`,
    `export * from '@toolwright/core';`,
  ],
  invalid: [
    {
      code: `import { Tool } from '@toolwright/core';\nexport class T {\n  @Tool() a() {}\n}`,
      errors: [{ messageId: 'missing', line: 1 }],
    },
    // Flagged once, at the import, however many decorators the file applies.
    {
      code: `import type { ToolContext } from '@toolwright/core';\nimport { Param, Tool } from '@toolwright/core';\nexport class T {\n  @Tool() a(@Param('w') w: string, ctx: ToolContext) {}\n}`,
      errors: [{ messageId: 'missing', line: 1 }],
    },
  ],
});

// Without type information (no projectService, or disableTypeChecked on some files) the rules
// that read types do nothing: throwing would stop the whole lint run.
untypedRuleTester().run('decorator-settings (no type information)', loose(decoratorSettings), {
  valid: [`import { Tool } from '@toolwright/core';\nexport class T {\n  @Tool() a() {}\n}`],
  invalid: [],
});
untypedRuleTester().run('param-type-supported (no type information)', loose(paramTypeSupported), {
  valid: [`${imports} class T { @Tool() a(@Param('w') w: string | number, @Param('n') n = 1) {} }`],
  invalid: [],
});
