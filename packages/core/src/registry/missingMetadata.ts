import { isTypediService } from '../container/defaultContainer';
import { ACCESS_KEY, type AccessArgs } from '../metadata/AccessArgs';
import type { Class } from '../metadata/Class';
import { PROMPTS_KEY, RESOURCES_KEY, TOOLS_KEY, TRANSFORMS_KEY } from '../metadata/keys';
import { readOwnList } from '../metadata/ownMetadata';
import type { ResourceArgs } from '../metadata/ResourceOptions';
import { lifetimeOf } from '../metadata/ServiceLifetime';
import { PIPELINE_KEY, type PipelineArgs } from '../pipeline/PipelineArgs';
import type { BuildProblem } from './BuildProblem';
import type { InjectableRole } from './checkLifetimes';
import { isMissingMetadataProblem } from './checkParamDecorators';

/** A class whose constructor takes parameters but has no constructor types recorded (see `checkConstructorTypes`). */
export interface UntypedConstructor {
  readonly cls: Class;
  readonly role: InjectableRole;
  /** The class decorator that would make TypeScript record them: `@Service() (typedi)`, `@Scoped('request')`. */
  readonly decorator: string;
}

const COMPILE =
  'set "emitDecoratorMetadata": true (with "experimentalDecorators": true) in the compilerOptions of your tsconfig.json, and build with tsc, ts-jest or swc (decoratorMetadata: true); do not run the source with tsx, esbuild, vitest or Bun, which drop decorator metadata.';

/**
 * Reports the classes whose constructor types are missing, with the cause, and leads the
 * problems with them. TypeScript emits constructor types only with `emitDecoratorMetadata`
 * and only for a class with a class decorator, so two causes look alike at run time; what
 * tells them apart:
 * - a decorated method always gets `design:paramtypes` when metadata is on: a class whose
 *   methods have them and whose constructor has none lacks a class decorator;
 * - a class with a class decorator Toolwright can see (typedi's `@Service()` registers the
 *   class; `@Scoped`, class-level `@UseMiddleware`/`@RequireRoles`/... and `@TransformTools`
 *   record on it) would have had its types with metadata on: the compiler setting is the cause;
 * - so is a `@Param` left without a type (`missingMetadataProblem`), or a served class whose
 *   decorated methods have none.
 * When metadata is off that is one cause for the whole build: one problem names every class
 * and parameter it leaves without types (a single `@Param` keeps its own problem). A class
 * without any sign either way gets a fix that covers both causes, the compiler setting first.
 */
export function reportMissingMetadata(untyped: readonly UntypedConstructor[], served: readonly Class[], problems: BuildProblem[]): void {
  const params = problems.filter(isMissingMetadataProblem);
  const sites = untyped.map((u) => ({ ...u, decorated: hasClassDecorator(u.cls), emitted: methodTypesEmitted(u.cls) }));
  if (sites.length === 0 && params.length === 0) return;
  // What the served classes' methods say, for a class without methods of its own (middleware, guards).
  const elsewhere = served.map(methodTypesEmitted);
  const off = params.length > 0 || sites.some((s) => s.emitted === false || (s.emitted === undefined && s.decorated)) || elsewhere.includes(false);
  // A class whose own methods got types lacks a decorator, whatever the rest of the build says.
  const undecorated = sites.filter((s) => s.emitted === true || (s.emitted === undefined && !s.decorated && elsewhere.includes(true)));
  const metadata = off ? sites.filter((s) => !undecorated.includes(s)) : [];
  const unknown = off ? [] : sites.filter((s) => !undecorated.includes(s));

  const lead: BuildProblem[] = [];
  if (metadata.length > 0 || params.length > 1) {
    for (const p of params) problems.splice(problems.indexOf(p), 1);
    lead.push(metadataOffProblem(metadata, params));
  } else if (params.length === 1) {
    problems.splice(problems.indexOf(params[0]!), 1);
    lead.push(params[0]!);
  }
  for (const s of sites.filter((x) => undecorated.includes(x) || unknown.includes(x))) {
    lead.push({
      where: s.role.where,
      what: `its constructor takes ${s.cls.length === 1 ? '1 parameter' : `${s.cls.length} parameters`}, but no constructor types were emitted for this ${s.role.noun} (design:paramtypes), so the container cannot tell what to inject and every call would fail`,
      fix: undecorated.includes(s)
        ? `give ${s.cls.name} a class decorator (${s.decorator}): TypeScript emits constructor types only for a decorated class. Compile with tsc (or swc) with "experimentalDecorators": true and "emitDecoratorMetadata": true; esbuild, tsx, vitest and Bun emit no decorator metadata.`
        : `${COMPILE} And if ${s.cls.name} has no class decorator, give it one (${s.decorator}): TypeScript emits constructor types only for a decorated class.`,
    });
  }
  problems.unshift(...lead);
}

/** The one problem of a build compiled without decorator metadata. */
function metadataOffProblem(classes: readonly (UntypedConstructor & { readonly decorated: boolean })[], params: readonly BuildProblem[]): BuildProblem {
  const owners = [...new Set([...classes.map((c) => c.role.where), ...params.map((p) => p.where.slice(0, Math.max(0, p.where.indexOf('.'))) || p.where)])];
  const left: string[] = [];
  if (classes.length > 0) {
    left.push(`no constructor types (design:paramtypes) for ${listOf(classes.map((c) => c.role.where))}, so the container cannot tell what to inject and every call would fail`);
  }
  if (params.length > 0) left.push(`no parameter types for ${listOf(params.map((p) => p.where))}, so ${params.length === 1 ? 'its type' : 'their types'} cannot be known`);
  const decorated = classes.filter((c) => c.decorated).map((c) => c.cls.name);
  const undecorated = classes.filter((c) => !c.decorated);
  const because =
    decorated.length === 0
      ? ''
      : `. ${listOf(decorated)} ${decorated.length === 1 ? 'has a class decorator' : 'have class decorators'}, so TypeScript would have emitted ${decorated.length === 1 ? 'its' : 'their'} constructor types had "emitDecoratorMetadata" been on: the cause is the compiler setting, not a missing decorator`;
  let fix = COMPILE;
  if (undecorated.length > 0) {
    const names = listOf(undecorated.map((c) => c.cls.name));
    const decorators = [...new Set(undecorated.map((c) => c.decorator))].join(' or ');
    fix += ` And if ${names} ${undecorated.length === 1 ? 'has no class decorator, give it one' : 'have no class decorator, give each one'} (${decorators}): TypeScript emits constructor types only for a decorated class.`;
  } else if (classes.length === 0) {
    fix += ' Or give each of those @Param its type: { type: () => String }.';
  }
  return { where: owners.join(', '), what: `decorator metadata is off in this build: there are ${left.join(', and ')}${because}`, fix };
}

/**
 * Whether the class shows a class decorator: typedi knows it (`@Service()` registers it), or a
 * Toolwright class decorator recorded on it. A decorator of another library leaves no sign.
 */
function hasClassDecorator(cls: Class): boolean {
  return (
    isTypediService(cls) ||
    lifetimeOf(cls) !== 'app' ||
    Reflect.hasOwnMetadata(TRANSFORMS_KEY, cls) ||
    readOwnList<PipelineArgs>(PIPELINE_KEY, cls).some((r) => r.methodName === undefined) ||
    readOwnList<AccessArgs>(ACCESS_KEY, cls).some((r) => r.methodName === undefined) ||
    readOwnList<ResourceArgs>(RESOURCES_KEY, cls).some((r) => r.file !== undefined)
  );
}

/**
 * Whether the decorated methods (`@Tool`, `@Resource`, `@Prompt`) of the class, or else of its
 * nearest ancestor that has some, got their `design:paramtypes`: TypeScript records them for
 * every decorated method when `emitDecoratorMetadata` is on. Undefined when there are none.
 */
function methodTypesEmitted(cls: Class): boolean | undefined {
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const owner = c as Class;
    // Not a class-level @UiResource (no method), nor a static method (its types are on the class).
    const methods = [TOOLS_KEY, RESOURCES_KEY, PROMPTS_KEY].flatMap((key) => readOwnList<MethodRecord>(key, owner).filter((m) => m.file === undefined && m.isStatic !== true));
    if (methods.length > 0) return methods.every((m) => Reflect.hasOwnMetadata('design:paramtypes', owner.prototype as object, m.methodName));
  }
  return undefined;
}

interface MethodRecord {
  readonly methodName: string;
  readonly isStatic?: boolean;
  readonly file?: unknown;
}

/** `A`, `A and B`, `A, B and C`, `A, B, C and 2 more`. */
function listOf(items: readonly string[], max = 3): string {
  const shown = items.length > max ? [...items.slice(0, max), `${items.length - max} more`] : items;
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
