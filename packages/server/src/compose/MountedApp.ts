import type { BuildProblem, Class, ToolLogger, ToolTransforms } from '@toolwright/core';
import { transformTool, type CompiledPrompt, type CompiledResource, type CompiledResourceTemplate, type CompiledTool } from '@toolwright/core/internal';
import type { Catalog, CatalogParts, ListKind } from '../surface/Catalog';
import type { ChangeNotifier } from '../surface/Connections';
import type { Surface } from '../surface/Surface';
import type { MemberLimits } from '../pipeline/ServedMember';
import { neededExtensionProblems } from '../extensions/neededExtensionProblems';
import type { MountSource } from './MountSource';
import { EMPTY_PARTS, keyOf, listOf, sameItems, switchKey, withList, type ListMember } from './catalogLists';

/** The longest tool name clients accept, namespace included. */
export const MAX_TOOL_NAME = 128;

/** What a mounted member brings to the parent besides its definition: its class and method, and what it runs with. */
interface Member {
  readonly target: Class;
  readonly methodName: string;
  readonly timeoutMs?: number;
  readonly pipeline?: CompiledTool['pipeline'];
  readonly limits?: MemberLimits;
}

/** How many mounts each catalog served: each mount's rank is the next (the app's own members have rank 0). */
const mountsServed = new WeakMap<Catalog, number>();

function nextRank(catalog: Catalog): number {
  const rank = (mountsServed.get(catalog) ?? 0) + 1;
  mountsServed.set(catalog, rank);
  return rank;
}

/**
 * The mounts each parent serves, by the parent's catalog: they live as long as the parent does.
 * The mounted app tells them of its changes through a weak reference only (see `weakNotifier`),
 * so a parent its code dropped is not kept alive, nor kept in step, by an app that outlives it.
 */
const mountsOfParent = new WeakMap<Catalog, Set<MountedApp>>();

/** Stops the following of a mount that was collected with its parent. */
const unfollowCollected = new FinalizationRegistry<() => void>((unfollow) => unfollow());

/** One mounted app: its definitions as the parent serves them, kept in step with its catalog. */
export class MountedApp {
  private readonly wrapped = new WeakMap<object, object | null>();
  private served: CatalogParts = EMPTY_PARTS;
  /** The mounted app's enabled definitions as this mount last read them (its own, not wrapped), whether the parent serves each or not. */
  private seen: CatalogParts = EMPTY_PARTS;
  /** The tools left out of the parent at the last change of the tools, by name: each is logged once, until it is served again. */
  private refused = new Set<string>();
  /** The keys (see `keyOf`) of each list's members left out at its last change because the parent serves that key: each is logged once, while the clash lasts. */
  private readonly clashing = new Map<ListKind, ReadonlySet<string>>();
  /** The members the parent itself disabled, by `switchKey`: served again disabled after the mounted app's changes, until the parent enables them. */
  private readonly switchedOff = new Set<string>();
  /** The members the parent itself removed, by `switchKey`: removed for good, never served again by this mount. */
  private readonly removed = new Set<string>();
  private unfollow: (() => void) | undefined;
  /** The parent it is served into, once it is. */
  private following: { readonly surface: Surface; readonly logger: ToolLogger } | undefined;
  private readonly transformed = new Set<string>();
  /** Where its templates come in the parent's order (see `Catalog.matchTemplate`): set when it is served. */
  private rank = 1;

  constructor(
    private readonly source: MountSource,
    readonly namespace: string,
    private readonly transforms: ToolTransforms,
    /** Where transform problems go: the build's list, then (for list changes) the log. */
    private problems: BuildProblem[],
    /** The mounted app's name, for messages. */
    private readonly appName: string,
    /** The identifiers of the extensions the parent serves. */
    private readonly parentExtensions: ReadonlySet<string>,
  ) {}

  /** A problem for each of `tools` (as the parent serves them) that needs an extension the parent does not serve. */
  neededExtensionProblems(tools: readonly CompiledTool[]): BuildProblem[] {
    return neededExtensionProblems(tools, this.parentExtensions, () => `mount '${this.namespace}', app '${this.appName}'`);
  }

  /** Every tool name of `transforms` must be one the mounted app serves. */
  checkTransformNames(): void {
    for (const name of Object.keys(this.transforms)) {
      if (this.transformed.has(name)) continue;
      this.problems.push({
        where: `mount '${this.namespace}'`,
        what: `its transforms name tool '${name}', which the mounted app does not serve`,
        fix: `use the mounted app's own tool names (without the namespace): ${
          this.source.catalog
            .enabledParts()
            .tools.map((t) => t.name)
            .join(', ') || '(none)'
        }.`,
      });
    }
  }

  /** The mounted app's enabled definitions (`now`, by default read now), renamed and wrapped for the parent. */
  parts(now = this.source.catalog.enabledParts()): CatalogParts {
    return {
      tools: now.tools.flatMap((t) => {
        const made = this.wrap(t, () => this.tool(t));
        return made ? [made] : [];
      }),
      resources: now.resources.map((r) => this.wrap(r, () => Object.freeze({ ...r, ...this.runWith(r, this.source.timeoutMs) }) as CompiledResource)),
      resourceTemplates: now.resourceTemplates.map((t) => this.wrap(t, () => Object.freeze({ ...t, ...this.runWith(t, this.source.timeoutMs) }) as CompiledResourceTemplate)),
      prompts: now.prompts.map((p) => this.wrap(p, () => this.prompt(p))),
    };
  }

  /** Adds the definitions to the parent's catalog and follows the mounted app's changes. */
  serve(surface: Surface, logger: ToolLogger, announce: boolean): void {
    this.rank = nextRank(surface.catalog);
    this.seen = this.source.catalog.enabledParts();
    this.served = this.parts(this.seen);
    // From now on a transform that fails on a changed tool is logged; the tool is left out.
    this.problems = loggedProblems(logger, this.namespace);
    surface.catalog.addRegistry(this.served, announce, this.rank);
    if (this.source.scopes.active) surface.env.scopes.active = true;
    this.following = { surface, logger };
    let mounts = mountsOfParent.get(surface.catalog);
    if (!mounts) mountsOfParent.set(surface.catalog, (mounts = new Set()));
    mounts.add(this);
    const unfollow = this.source.addNotifier(weakNotifier(new WeakRef(this)));
    unfollowCollected.register(this, unfollow, this);
    this.unfollow = () => {
      unfollow();
      unfollowCollected.unregister(this);
      mounts.delete(this);
    };
  }

  stop(): void {
    this.unfollow?.();
  }

  /** The mounted app changed a list: the parent serves what it serves now. */
  changed(kind: ListKind): void {
    if (this.following) this.resync(kind, this.following.surface, this.following.logger);
  }

  /**
   * The mounted app updated a resource: the parent's subscribers of `uri` are told. The mounted
   * app serves `uri` (it tells of no other), but the parent's copy of its resources follows its
   * list changes one debounce later: a resource (or template) it served again just before the
   * update is served by the parent first, or the parent, which tells only of URIs it serves,
   * would drop the update. One the parent itself disabled or removed stays so.
   */
  updated(uri: string): void {
    if (!this.following) return;
    const { surface, logger } = this.following;
    if (this.lagsBehind(uri)) this.resync('resources', surface, logger);
    void surface.connections.resourceUpdated(uri);
  }

  /** Whether the resource or template the mounted app serves `uri` with now is one this mount has not read yet (its list change is on its way). */
  private lagsBehind(uri: string): boolean {
    const { catalog } = this.source;
    const resource = catalog.resource(uri);
    if (resource) return !this.seen.resources.includes(resource);
    const template = catalog.matchTemplate(uri)?.template;
    return template !== undefined && !this.seen.resourceTemplates.includes(template);
  }

  get catalog(): Catalog {
    return this.source.catalog;
  }

  /**
   * Replaces what the parent serves of one list with the mounted app's list now; nothing when
   * this mount read that list as it is already (a change it caught up with early, see `updated`,
   * or one undone within the debounce), so the parent announces no change that is none.
   * The parent's own switches hold: a member it disabled is served again disabled, one it
   * removed is not served again (see `readParentSwitches`).
   */
  private resync(kind: ListKind, surface: Surface, logger: ToolLogger): void {
    const { catalog } = surface;
    const read = this.source.catalog.enabledParts();
    if (sameItems(listOf(read, kind), listOf(this.seen, kind))) return;
    this.seen = withList(this.seen, read, kind);
    const next = this.parts(read);
    const old = this.served;
    this.readParentSwitches(kind, catalog, old);
    // Only what this mount still serves: the parent may have removed one and served its own under that name since.
    if (kind === 'tools') for (const t of old.tools) catalog.removeDefinition('tools', t.name, t);
    if (kind === 'prompts') for (const p of old.prompts) catalog.removeDefinition('prompts', p.name, p);
    if (kind === 'resources') {
      for (const r of old.resources) catalog.removeDefinition('resources', r.uri, r);
      for (const t of old.resourceTemplates) catalog.removeDefinition('resources', t.uriTemplate, t);
    }
    const clashing = new Set<string>();
    const add = <D extends ListMember>(definitions: readonly D[], part: (d: D) => CatalogParts) => {
      const added = addEach(
        catalog,
        definitions.filter((d) => !this.removed.has(switchKey(kind, d))),
        part,
        (d, message) => {
          // Logged once while it lasts, as the refused tools are (see `servable`).
          if (!this.clashing.get(kind)?.has(keyOf(d))) logger.error?.(`mount '${this.namespace}': ${message}`);
          clashing.add(keyOf(d));
        },
        this.rank,
      );
      for (const d of added) if (this.switchedOff.has(switchKey(kind, d))) catalog.setEnabled(kind, keyOf(d), false);
      return added;
    };
    const added: CatalogParts = {
      tools: kind === 'tools' ? add(this.servable(next.tools, logger), (t) => ({ ...EMPTY_PARTS, tools: [t] })) : old.tools,
      prompts: kind === 'prompts' ? add(next.prompts, (p) => ({ ...EMPTY_PARTS, prompts: [p] })) : old.prompts,
      resources: kind === 'resources' ? add(next.resources, (r) => ({ ...EMPTY_PARTS, resources: [r] })) : old.resources,
      resourceTemplates: kind === 'resources' ? add(next.resourceTemplates, (t) => ({ ...EMPTY_PARTS, resourceTemplates: [t] })) : old.resourceTemplates,
    };
    this.clashing.set(kind, clashing);
    if (this.source.scopes.active) surface.env.scopes.active = true;
    this.served = added;
  }

  /**
   * Reads what the parent did to the members of one list this mount served (`old`) since it
   * served them: one it disabled is remembered as switched off, one it enabled again is
   * forgotten, one it removed (or replaced with a member of its own) is remembered as removed.
   * A member the mounted app does not serve now keeps what was last read of it.
   */
  private readParentSwitches(kind: ListKind, catalog: Catalog, old: CatalogParts): void {
    const all = new Set(listOf(catalog.allParts(), kind));
    const enabled = new Set(listOf(catalog.enabledParts(), kind));
    for (const d of listOf(old, kind)) {
      const key = switchKey(kind, d);
      if (!all.has(d)) {
        this.removed.add(key);
        this.switchedOff.delete(key);
      } else if (enabled.has(d)) this.switchedOff.delete(key);
      else this.switchedOff.add(key);
    }
  }

  /**
   * The tools the mounted app serves after a change that the parent can serve, as the build
   * would: each other one (a name too long, a tool that cannot run as declared in the parent) is
   * left out and logged, once while it stays left out (every later change of the tools leaves it out again).
   */
  private servable(tools: readonly CompiledTool[], logger: ToolLogger): CompiledTool[] {
    const refused = new Set<string>();
    const servable = tools.filter((tool) => {
      const why = tooLong(tool, this.namespace) ?? this.unrunnable(tool);
      if (why === undefined) return true;
      if (!this.refused.has(tool.name)) logger.error?.(why);
      refused.add(tool.name);
      return false;
    });
    this.refused = refused;
    return servable;
  }

  /** Why a tool cannot run as declared in the parent (it needs an extension the parent does not serve), or undefined. */
  private unrunnable(tool: CompiledTool): string | undefined {
    const [problem] = this.neededExtensionProblems([tool]);
    return problem && `mount '${this.namespace}': ${problem.where} is not served: ${problem.what}. Fix: ${problem.fix}`;
  }

  /** The tool as the parent serves it: transformed, renamed into the namespace; undefined when its transform is wrong. */
  private tool(original: CompiledTool): CompiledTool | null {
    if (!Object.hasOwn(this.transforms, original.name)) {
      const name = `${this.namespace}_${original.name}`;
      const call = original.callAs?.(name) ?? original.call;
      return Object.freeze({ ...original, name, descriptor: { ...original.descriptor, name }, call, ...this.runWith(original, this.source.toolTimeoutMs) });
    }
    this.transformed.add(original.name);
    const transform = this.transforms[original.name]!;
    // Renamed into the namespace by the transform itself, so its messages name the tool as clients call it.
    const name = `${this.namespace}_${typeof transform?.name === 'string' ? transform.name : original.name}`;
    const t = transformTool(original, { ...transform, name }, `mount '${this.namespace}', tool '${original.name}'`, this.problems);
    return t ? Object.freeze({ ...t, ...this.runWith(t, this.source.toolTimeoutMs) }) : null;
  }

  private prompt(p: CompiledPrompt): CompiledPrompt {
    const name = `${this.namespace}_${p.name}`;
    return Object.freeze({ ...p, name, descriptor: { ...p.descriptor, name }, ...this.runWith(p, this.source.timeoutMs) });
  }

  /** The mounted app's middleware around the member's own, its default timeout, and its limits (a member mounted twice keeps the innermost app's). */
  private runWith(member: Member, timeoutMs: number | undefined): Partial<Member> {
    const { middleware, limits } = this.source;
    return {
      ...(middleware.length > 0 && { pipeline: { middleware: [...middleware, ...(member.pipeline?.middleware ?? [])], guards: member.pipeline?.guards ?? [] } }),
      ...(member.timeoutMs === undefined && timeoutMs !== undefined && { timeoutMs }),
      ...(limits && { limits: { ...limits, ...member.limits } }),
    };
  }

  /** One wrapper per definition, so the pipeline's per-member caches keep working across list changes. */
  private wrap<D extends object, M extends D | null>(definition: D, make: () => M): M {
    if (this.wrapped.has(definition)) return this.wrapped.get(definition) as M;
    const made = make();
    this.wrapped.set(definition, made);
    return made;
  }
}

/**
 * What the mounted app calls on a change: the mount, while it lives. Made out of the mount's own
 * scope, so nothing here holds the mount (or its parent) strongly.
 */
function weakNotifier(mount: WeakRef<MountedApp>): ChangeNotifier {
  return {
    toolsChanged: () => mount.deref()?.changed('tools'),
    promptsChanged: () => mount.deref()?.changed('prompts'),
    resourcesChanged: () => mount.deref()?.changed('resources'),
    resourceUpdated: (uri) => mount.deref()?.updated(uri),
  };
}

/** A problem list that logs each problem pushed to it. */
function loggedProblems(logger: ToolLogger, namespace: string): BuildProblem[] {
  const list: BuildProblem[] = [];
  list.push = (...items: BuildProblem[]) => {
    for (const p of items) logger.error?.(`mount '${namespace}': ${p.where} ${p.what}; ${p.fix}`);
    return 0;
  };
  return list;
}

/** Why a tool changed at runtime has a name clients do not accept once namespaced (more than `MAX_TOOL_NAME` characters), or undefined. */
function tooLong(tool: CompiledTool, namespace: string): string | undefined {
  if (tool.name.length <= MAX_TOOL_NAME) return undefined;
  return `mount '${namespace}': tool '${tool.name.slice(0, 80)}...' is not served: it is ${tool.name.length} characters long under the namespace; tool names may have at most ${MAX_TOOL_NAME}. Choose a shorter namespace, or rename the tool with the mount's transforms.`;
}

/** Adds each definition alone, so one that clashes at runtime is left out (and passed to `clash` with the reason) while the others are served. */
function addEach<D>(catalog: Catalog, definitions: readonly D[], part: (d: D) => CatalogParts, clash: (d: D, message: string) => void, rank: number): D[] {
  const added: D[] = [];
  for (const d of definitions) {
    try {
      catalog.addRegistry(part(d), true, rank);
      added.push(d);
    } catch (error) {
      clash(d, (error as Error).message);
    }
  }
  return added;
}
