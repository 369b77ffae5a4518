import { ConfigError, type Class } from '@toolwright/core';
import { injectedClasses, isGuardClass, isMiddlewareClass, lifetimeOf } from '@toolwright/core/internal';
import type { MemberPipeline } from '@toolwright/core';
import type { ServiceOverrides } from '../app/App';
import { mountSourceOf, type MountSource } from './MountSource';

/** A served member, as far as the call's container is concerned. */
interface InjectingMember {
  readonly target: Class;
  readonly pipeline?: MemberPipeline;
}

/** The entries that take overrides, each with what its message calls what it makes and where its caller comes from. */
const ENTRIES = {
  createTestClient: { makes: 'this client', caller: "createTestClient's auth" },
  createServer: { makes: 'this server', caller: "createServer's authInfo" },
  connect: { makes: 'this connection', caller: 'the caller its transport reports' },
} as const;

/** The entry whose overrides are checked, named in the error. */
export type OverridesEntry = keyof typeof ENTRIES;

/** How many injected classes the message names before it says how many more there are. */
const LISTED = 40;

/** Overrides already found all used, by the app they were checked against: a 2026-07-28 test client makes a server per request with the same ones. */
const passed = new WeakMap<object, WeakSet<object>>();

/**
 * Refuses an override that nothing in `app` injects (a typo, the wrong class, a class from
 * another copy of its module): it would never be used, and the test would run against the
 * real service. Reads what the app serves when `entry` is called (tools, resources and prompts,
 * disabled ones and mounted apps' included, their middleware and the app's, their `@Scoped`
 * guards), and what the call's container builds for them. An app not made by `createApp` is not checked.
 */
export function checkOverridesInjected(overrides: ServiceOverrides | undefined, app: object, entry: OverridesEntry): void {
  if (!overrides) return;
  const source = mountSourceOf(app);
  if (!source || passed.get(overrides)?.has(app)) return;
  const keys = overrides instanceof Map ? [...(overrides as ReadonlyMap<Class, unknown>).keys()] : (overrides as readonly (readonly [Class, unknown])[]).map(([cls]) => cls);
  const members = membersOf(source);
  const injected = injectedClasses(builtPerCall(source, members));
  const unused = keys.filter((cls) => !injected.has(cls));
  if (unused.length === 0) {
    let apps = passed.get(overrides);
    if (!apps) passed.set(overrides, (apps = new WeakSet()));
    apps.add(app);
    return;
  }
  const { makes, caller } = ENTRIES[entry];
  const guarded = injectedClasses(appGuardClasses(members));
  const [byGuards, byNothing] = [unused.filter((cls) => guarded.has(cls)).map(nameOf), unused.filter((cls) => !guarded.has(cls)).map(nameOf)];
  const names = [...injected].map(nameOf);
  const listed = names.length > LISTED ? `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more` : names.join(', ') || 'nothing';
  const twins = byNothing.filter((name) => names.includes(name));
  throw new ConfigError(
    [
      `${entry}: overrides name ${unused.map(nameOf).join(', ')}, which ${makes} would never use, so the test would run against the real services.`,
      byNothing.length > 0 && `Nothing in this app injects ${byNothing.join(' or ')}.`,
      byGuards.length > 0 &&
        `${byGuards.join(' and ')} ${byGuards.length === 1 ? 'is' : 'are'} injected only by guard classes that are not @Scoped: the app's own container builds them once, where overrides do not reach. ` +
          `To test a guard's refusal, change the caller (${caller}), or mark the guard @Scoped('request') so that each call's container builds it.`,
      `This app's tools, resources, prompts, middleware and @Scoped guards (what a call's container builds) inject: ${listed}.`,
      twins.length > 0 && `It injects a different class named ${twins.join(', ')}: import the class from the module the app imports it from, not another copy of that module.`,
      'Key each override by a class from that list, or remove it.',
    ]
      .filter(Boolean)
      .join(' '),
  );
}

/** Every member `source` serves, enabled or not, mounted apps' included. */
function membersOf(source: MountSource): readonly InjectingMember[] {
  const parts = source.catalog.allParts();
  return [...parts.tools, ...parts.resources, ...parts.resourceTemplates, ...parts.prompts];
}

/** The classes a call's container builds for `members`: theirs, their middleware classes (with the app's), and their `@Scoped` guard classes. */
function builtPerCall(source: MountSource, members: readonly InjectingMember[]): Class[] {
  const middleware = [...source.middleware, ...members.flatMap((m) => m.pipeline?.middleware ?? [])];
  return [...members.map((m) => m.target), ...middleware.filter(isMiddlewareClass), ...guardClassesOf(members).filter((cls) => lifetimeOf(cls) !== 'app')];
}

/** The guard classes of `members` that are not `@Scoped`: the app's own container builds them (`guardContainer`), so overrides never reach them. */
function appGuardClasses(members: readonly InjectingMember[]): Class[] {
  return guardClassesOf(members).filter((cls) => lifetimeOf(cls) === 'app');
}

function guardClassesOf(members: readonly InjectingMember[]): Class[] {
  return members.flatMap((m) => m.pipeline?.guards ?? []).filter(isGuardClass);
}

function nameOf(cls: Class): string {
  return cls.name || '(an anonymous class)';
}
