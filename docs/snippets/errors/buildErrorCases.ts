/**
 * One deliberately broken tool class per build error. docs/test/generated-docs.test.ts
 * builds each case, checks that it fails, and writes the real messages into
 * docs/guide/generated/build-errors.md (included by the Errors page), so the page always
 * shows exactly what Toolwright prints. Add a case here when you add a build error.
 */
import { Args, Ctx, Param, Property, Scoped, Tool, UseMiddleware, type MemberCall, type Next, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsInt, IsString, ValidateNested } from 'class-validator';

export interface BuildErrorCase {
  /** What the user did, in a few words. */
  readonly situation: string;
  /** The `tools` passed to the build. */
  readonly tools: readonly unknown[];
}

class SearchInput {
  @IsString() query!: string;
}

// --- the app's tool list ----------------------------------------------------------------------
class Helpers {
  format(value: string) {
    return value.trim();
  }
}

class FirstTools {
  @Tool() search(@Param('q') q: string) {
    return q;
  }
}
class SecondTools {
  @Tool() search(@Param('q') q: string) {
    return q;
  }
}

class NoConstructorTypes {
  // A constructor that takes parameters, on a class without a class decorator: no constructor types.
  constructor(private readonly apiKey: string) {}
  @Tool() ping() {
    return this.apiKey ? 'pong' : 'no key';
  }
}

@Service()
class Settings {
  constructor() {
    throw new Error('API_KEY is not set');
  }
}
@Service()
class Unbuildable {
  constructor(private readonly settings: Settings) {}
  @Tool() ping() {
    return this.settings ? 'pong' : 'no settings';
  }
}

class Mailer {
  send(to: string) {
    return `sent to ${to}`;
  }
}
@Service()
class MailTools {
  // Mailer has no @Service(), so typedi does not know it.
  constructor(private readonly mailer: Mailer) {}
  @Tool() mail() {
    return this.mailer.send('ops');
  }
}

@Service()
class Clock {
  now() {
    return Date.now();
  }
}
@Service()
class TimeTools {
  constructor(private readonly clock: Clock) {}
  @Tool() now() {
    return String(this.clock.now());
  }
}
// What tsc without `emitDecoratorMetadata`, esbuild, tsx, vitest and Bun produce: no `design:paramtypes` anywhere.
Reflect.deleteMetadata('design:paramtypes', TimeTools);
Reflect.deleteMetadata('design:paramtypes', TimeTools.prototype, 'now');

class BaseRepoTools {
  @Tool() listRepos() {
    return [];
  }
}
class GithubTools extends BaseRepoTools {}
class GitlabTools extends BaseRepoTools {}

@Scoped('request')
class RequestLog {
  readonly lines: string[] = [];
}
@Service()
class AuditMiddleware {
  constructor(private readonly log: RequestLog) {}
  use(call: MemberCall, next: Next) {
    this.log.lines.push(call.name);
    return next();
  }
}
@Service()
@UseMiddleware(AuditMiddleware)
class AuditedTools {
  @Tool() ping() {
    return 'pong';
  }
}

class OrderInput {
  @IsString() sku!: string;
  discountCode!: string;
}
class UndecoratedProperty {
  @Tool() order(@Args() input: OrderInput) {
    return input.sku;
  }
}

// --- names and methods ------------------------------------------------------------------------
class BadName {
  @Tool({ name: 'get weather!' }) getWeather() {
    return 'sunny';
  }
}
class StaticTool {
  @Tool() static ping() {
    return 'pong';
  }
}
class NotAMethod {
  value = 1;
}
// A decorator applied by hand to a field: TypeScript's types stop this in source code.
(Tool() as (target: object, key: string, descriptor?: PropertyDescriptor) => void)(NotAMethod.prototype, 'value');

// --- parameters -------------------------------------------------------------------------------
class Undecorated {
  @Tool() greet(name: string) {
    return `hello ${name}`;
  }
}
class TwoDecorators {
  @Tool() greet(@Param('name') @Ctx() name: string) {
    return `hello ${name}`;
  }
}
class EmptyName {
  @Tool() greet(@Param('') name: string) {
    return `hello ${name}`;
  }
}
class OptionsAsName {
  // What JavaScript (or a cast) lets through: the options where the name goes.
  @Tool() greet(@Param({ description: 'Who to greet' } as unknown as string) name: string) {
    return `hello ${name}`;
  }
}
class NameAsOptions {
  @Tool('greet' as never) greet() {
    return 'hello';
  }
}
class MistypedOption {
  @Tool({ description: 'Reads a note.', annotations: { readOnlyHint: 'yes' as unknown as boolean } }) read() {
    return 'note';
  }
}
class NotPositiveTimeout {
  @Tool({ timeoutMs: 0 }) slow() {
    return 'done';
  }
}
class RepeatedName {
  @Tool() add(@Param('n') a: number, @Param('n') b: number) {
    return a + b;
  }
}
class TwoContexts {
  @Tool() ping(@Ctx() a: ToolContext, @Ctx() b: ToolContext) {
    return a === b ? 'same' : 'different';
  }
}
class MixedArgs {
  @Tool() search(@Args() input: SearchInput, @Param('limit') limit: number) {
    return `${input.query} ${limit}`;
  }
}
class TwoArgs {
  @Tool() search(@Args() a: SearchInput, @Args() b: SearchInput) {
    return a.query + b.query;
  }
}
class ArgsNotDto {
  @Tool() search(@Args() input: { query: string }) {
    return input.query;
  }
}
class ArgsThunkThrows {
  @Tool() search(
    @Args(() => {
      throw new Error('SearchInput is not defined yet');
    })
    input: SearchInput,
  ) {
    return input.query;
  }
}
class OutputUnresolvable {
  @Tool({
    output: () => {
      throw new Error('Report is not defined yet');
    },
  })
  report() {
    return {};
  }
}

// --- parameter types --------------------------------------------------------------------------
class ArrayWithoutType {
  @Tool() tag(@Param('tags') tags: string[]) {
    return tags.join(',');
  }
}
class UnionWithoutType {
  @Tool() set(@Param('mode') mode: 'fast' | 'safe' | 42) {
    return String(mode);
  }
}
class ThunkThrows {
  @Tool() find(
    @Param('filter', {
      type: () => {
        throw new Error('Filter is not defined yet');
      },
    })
    filter: unknown,
  ) {
    return filter;
  }
}
class NoMetadata {
  @Tool() greet(@Param('name') name: string) {
    return `hello ${name}`;
  }
}
// What esbuild, tsx, vitest and Bun produce: the decorators run, but no `design:paramtypes`.
Reflect.deleteMetadata('design:paramtypes', NoMetadata.prototype, 'greet');

// --- DTO classes ------------------------------------------------------------------------------
class NotValidated {
  query!: string;
}
class DtoWithoutValidators {
  @Tool() search(@Args() input: NotValidated) {
    return input.query;
  }
}

class Filter {
  @IsString() tag!: string;
}
class MissingValidateNested {
  @IsDefined() @Type(() => Filter) filter!: Filter;
  @IsString() query!: string;
}
class NestedWithoutValidateNested {
  @Tool() search(@Args() input: MissingValidateNested) {
    return input.query;
  }
}

class MissingType {
  @ValidateNested() filter!: Filter;
}
class NestedWithoutType {
  @Tool() search(@Args() input: MissingType) {
    return input.filter.tag;
  }
}

class UnknownElements {
  @ValidateNested() @Type(() => Filter) filter!: Filter;
  @Property({ description: 'Tags' }) tags!: string[];
}
class DocumentedButNotValidated {
  @Tool() search(@Args() input: UnknownElements) {
    return input.tags;
  }
}

class Contradiction {
  @IsString() @IsInt() value!: string;
}
class ContradictingConstraints {
  @Tool() set(@Args() input: Contradiction) {
    return input.value;
  }
}

class UnknownType {
  @IsBoolean({ each: true }) flags!: boolean[];
  @ValidateNested() extra!: Record<string, unknown>;
}
class PropertyTypeUnknown {
  @Tool() set(@Args() input: UnknownType) {
    return input.flags;
  }
}

class UnknownElementType {
  @IsArray() tags!: string[];
}
class ArrayPropertyWithoutElementType {
  @Tool() tag(@Args() input: UnknownElementType) {
    return input.tags;
  }
}

class TypeThrows {
  @ValidateNested()
  @Type(() => {
    throw new Error('Filter is not defined yet');
  })
  filter!: Filter;
}
class TypeFunctionThrows {
  @Tool() search(@Args() input: TypeThrows) {
    return input.filter;
  }
}

class DateInMeta {
  @Tool({ _meta: { 'example.com/since': new Date('2026-01-01') } }) report() {
    return 'ok';
  }
}

export const BUILD_ERROR_CASES: readonly BuildErrorCase[] = [
  { situation: 'Something that is not a class in `tools`', tools: [42] },
  { situation: 'A class without tools in `tools`', tools: [Helpers] },
  { situation: 'Two tools with the same name', tools: [FirstTools, SecondTools] },
  { situation: 'A constructor that takes services, on a class without a class decorator', tools: [NoConstructorTypes] },
  { situation: 'The container cannot build the class', tools: [Unbuildable] },
  { situation: 'An injected service the container does not know (no `@Service()`)', tools: [MailTools] },
  { situation: 'A decorated class compiled without decorator metadata (`emitDecoratorMetadata` off, or tsx, esbuild, vitest, Bun)', tools: [TimeTools] },
  { situation: 'Two classes that inherit one `@Tool` method', tools: [GithubTools, GitlabTools] },
  { situation: 'A class served with its subclass', tools: [BaseRepoTools, GithubTools] },
  { situation: 'A middleware (or guard) class that injects a request-scoped service but is not scoped itself', tools: [AuditedTools] },
  { situation: 'A DTO property without a decorator (class fields emitted: target ES2022 or later)', tools: [UndecoratedProperty] },
  { situation: 'An invalid tool name', tools: [BadName] },
  { situation: '`@Tool` on a static method', tools: [StaticTool] },
  { situation: 'A decorator option JSON cannot carry as written (a Date, BigInt, function, `NaN`, a cycle)', tools: [DateInMeta] },
  { situation: '`@Tool` on something that is not a method', tools: [NotAMethod] },
  { situation: 'A parameter without a decorator', tools: [Undecorated] },
  { situation: 'Two decorators on one parameter', tools: [TwoDecorators] },
  { situation: 'An empty argument name', tools: [EmptyName] },
  { situation: 'Options where the argument name goes', tools: [OptionsAsName] },
  { situation: 'A name where the options go', tools: [NameAsOptions] },
  { situation: 'An option of another type than MCP gives it', tools: [MistypedOption] },
  { situation: 'A timeout that is not a positive number', tools: [NotPositiveTimeout] },
  { situation: 'The same argument name twice', tools: [RepeatedName] },
  { situation: 'Two `@Ctx()` parameters', tools: [TwoContexts] },
  { situation: '`@Args()` together with `@Param()`', tools: [MixedArgs] },
  { situation: 'Two `@Args()` parameters', tools: [TwoArgs] },
  { situation: '`@Args()` on a type that is not a class', tools: [ArgsNotDto] },
  { situation: 'An `@Args(() => Dto)` function that throws', tools: [ArgsThunkThrows] },
  { situation: 'An `input`/`output` class that cannot be resolved', tools: [OutputUnresolvable] },
  { situation: 'An array parameter without its element type', tools: [ArrayWithoutType] },
  { situation: 'A union (or interface, `any`, `unknown`) parameter', tools: [UnionWithoutType] },
  { situation: 'A `type: () => X` function that throws', tools: [ThunkThrows] },
  { situation: 'No decorator metadata (esbuild, tsx, vitest, Bun)', tools: [NoMetadata] },
  { situation: 'A DTO class without class-validator decorators', tools: [DtoWithoutValidators] },
  { situation: 'A nested DTO without `@ValidateNested()`', tools: [NestedWithoutValidateNested] },
  { situation: 'A nested DTO without `@Type(() => X)`', tools: [NestedWithoutType] },
  { situation: '`@Property()` on a property without validators', tools: [DocumentedButNotValidated] },
  { situation: 'Constraints that no value can pass', tools: [ContradictingConstraints] },
  { situation: 'A DTO property whose type cannot be known', tools: [PropertyTypeUnknown] },
  { situation: 'A DTO array property without its element type', tools: [ArrayPropertyWithoutElementType] },
  { situation: 'A `@Type(() => X)` function that throws', tools: [TypeFunctionThrows] },
];

// #region message
class WeatherTools {
  @Tool()
  forecast(@Param('cities') cities: string[], @Param('days') days: number, units: string) {
    return `${cities.join(', ')} for ${days} days in ${units}`;
  }
}
// #endregion message

/** The class whose whole `BuildError` message the Errors page shows. */
export const MESSAGE_EXAMPLE = WeatherTools;
