import { ConfigError } from '@toolwright/core';
import type { CompiledPrompt, CompiledRegistry, CompiledResource, CompiledResourceTemplate, CompiledTool } from '@toolwright/core/internal';
import { cursorOffset, pageAt, type Page } from './paginate';
import { promptToWire, resourceToWire, templateToWire, toolToWire } from '../sdk/toWire';

/** The lists an app serves; each can change at runtime and announces it with its own `list_changed`. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/** The four lists of definitions, as a registry or a mounted app brings them. */
export type CatalogParts = Pick<CompiledRegistry, 'tools' | 'resources' | 'resourceTemplates' | 'prompts'>;

interface Entry<D> {
  readonly definition: D;
  enabled: boolean;
  /** Which templates a URI tries first: 0 for the app's own, then each mounted app's in the order of its mount. */
  readonly rank: number;
}

/**
 * What an app serves right now: the built definitions plus the ones added at runtime,
 * each enabled or disabled. List results are built once per change and cached page by
 * page, so listing costs a map lookup. One catalog per app, shared by its connections.
 */
export class Catalog {
  private readonly tools = new Map<string, Entry<CompiledTool>>();
  private readonly resources = new Map<string, Entry<CompiledResource>>();
  private readonly templates = new Map<string, Entry<CompiledResourceTemplate>>();
  private readonly prompts = new Map<string, Entry<CompiledPrompt>>();
  private readonly pages = new Map<string, object>();
  private toolChanges = 0;

  constructor(
    registry: CompiledRegistry,
    private readonly pageSize: number | undefined,
    private readonly changed: (kind: ListKind) => void,
  ) {
    this.addRegistry(registry, false);
  }

  /**
   * Adds every definition of a registry built from more classes; names and URIs must be new.
   * `rank` orders templates that match the same URI: 0 (the app's own) first, then the mounted apps' by their mount.
   * Without `announce` no `list_changed` goes out (the caller announces it, or nobody is connected
   * yet), but the lists changed all the same: `toolsRevision` moves and the cached pages go.
   */
  addRegistry(registry: CatalogParts, announce = true, rank = 0): void {
    const clash = [
      ...registry.tools.filter((t) => this.tools.has(t.name)).map((t) => `tool '${t.name}'`),
      ...registry.resources.filter((r) => this.resources.has(r.uri)).map((r) => `resource '${r.uri}'`),
      ...registry.resourceTemplates.filter((t) => this.templates.has(t.uriTemplate)).map((t) => `resource template '${t.uriTemplate}'`),
      ...registry.prompts.filter((p) => this.prompts.has(p.name)).map((p) => `prompt '${p.name}'`),
    ];
    if (clash.length > 0) throw new ConfigError(`Toolwright: cannot add ${clash.join(', ')}: already served. Remove the old one first, or rename the new one.`);
    for (const t of registry.tools) this.tools.set(t.name, { definition: t, enabled: true, rank });
    for (const r of registry.resources) this.resources.set(r.uri, { definition: r, enabled: true, rank });
    for (const t of registry.resourceTemplates) this.templates.set(t.uriTemplate, { definition: t, enabled: true, rank });
    for (const p of registry.prompts) this.prompts.set(p.name, { definition: p, enabled: true, rank });
    if (registry.tools.length > 0) this.touch('tools', announce);
    if (registry.resources.length + registry.resourceTemplates.length > 0) this.touch('resources', announce);
    if (registry.prompts.length > 0) this.touch('prompts', announce);
  }

  /** The definitions enabled now (what an app that mounts this one serves of it). */
  enabledParts(): CatalogParts {
    return this.parts((e) => e.enabled);
  }

  /** Every definition, enabled or not (a disabled one may be enabled again). */
  allParts(): CatalogParts {
    return this.parts(() => true);
  }

  private parts(wanted: (entry: Entry<unknown>) => boolean): CatalogParts {
    const of = <D>(map: Map<string, Entry<D>>) => [...map.values()].filter(wanted).map((e) => e.definition);
    // Templates in the order a URI tries them, so an app that mounts this one tries them in the same order.
    const templates = [...this.templates.values()]
      .filter(wanted)
      .sort((a, b) => a.rank - b.rank)
      .map((e) => e.definition);
    return { tools: of(this.tools), resources: of(this.resources), resourceTemplates: templates, prompts: of(this.prompts) };
  }

  tool(name: string): CompiledTool | undefined {
    return enabled(this.tools.get(name));
  }

  resource(uri: string): CompiledResource | undefined {
    return enabled(this.resources.get(uri));
  }

  template(uriTemplate: string): CompiledResourceTemplate | undefined {
    return enabled(this.templates.get(uriTemplate));
  }

  /**
   * The enabled template that produces `uri`, with its variables: the app's own first, then each
   * mounted app's in the order of its mount, whenever each was added (a template added at
   * runtime, or a mounted app's served again after its list changed, keeps its place).
   */
  matchTemplate(uri: string): { template: CompiledResourceTemplate; variables: Record<string, string | string[]> } | undefined {
    let found: { template: CompiledResourceTemplate; variables: Record<string, string | string[]>; rank: number } | undefined;
    for (const entry of this.templates.values()) {
      if (!entry.enabled || (found && entry.rank >= found.rank)) continue;
      const variables = entry.definition.match(uri);
      if (!variables) continue;
      if (entry.rank === 0) return { template: entry.definition, variables };
      found = { template: entry.definition, variables, rank: entry.rank };
    }
    return found && { template: found.template, variables: found.variables };
  }

  prompt(name: string): CompiledPrompt | undefined {
    return enabled(this.prompts.get(name));
  }

  toolsPage(cursor: string | undefined) {
    return this.page('tools', cursor, () => [...this.tools.values()].filter((e) => e.enabled).map((e) => toolToWire(e.definition.descriptor)));
  }

  resourcesPage(cursor: string | undefined) {
    return this.page('resources', cursor, () => [...this.resources.values()].filter((e) => e.enabled).map((e) => resourceToWire(e.definition.descriptor)));
  }

  templatesPage(cursor: string | undefined) {
    return this.page('resourceTemplates', cursor, () => [...this.templates.values()].filter((e) => e.enabled).map((e) => templateToWire(e.definition.descriptor)));
  }

  promptsPage(cursor: string | undefined) {
    return this.page('prompts', cursor, () => [...this.prompts.values()].filter((e) => e.enabled).map((e) => promptToWire(e.definition.descriptor)));
  }

  /** How many times the tools changed (added, removed, enabled or disabled): what is derived from them can be kept until it moves. */
  get toolsRevision(): number {
    return this.toolChanges;
  }

  get hasResources(): boolean {
    return this.resources.size > 0 || this.templates.size > 0;
  }

  get hasPrompts(): boolean {
    return this.prompts.size > 0;
  }

  /** Whether any template or prompt exists (then `completion/complete` is served). */
  get hasCompletions(): boolean {
    return this.templates.size > 0 || this.prompts.size > 0;
  }

  /**
   * Enables or disables a tool (by name), a resource (by URI or template), or a prompt (by
   * name). Returns false when there is none; announces the change only when there is one.
   */
  setEnabled(kind: ListKind, key: string, value: boolean): boolean {
    const entry = this.entry(kind, key);
    if (!entry) return false;
    if (entry.enabled !== value) {
      entry.enabled = value;
      this.touch(kind);
    }
    return true;
  }

  /** Removes a tool, resource (URI or template) or prompt for good. Returns false when there is none. */
  remove(kind: ListKind, key: string): boolean {
    const removed = kind === 'tools' ? this.tools.delete(key) : kind === 'prompts' ? this.prompts.delete(key) : this.resources.delete(key) || this.templates.delete(key);
    if (removed) this.touch(kind);
    return removed;
  }

  /**
   * Removes a tool, resource (URI or template) or prompt only while it is `definition` (what a
   * mounted app added), not one served under the same key since. Returns false when it is not.
   */
  removeDefinition(kind: ListKind, key: string, definition: object): boolean {
    const map = kind === 'tools' ? this.tools : kind === 'prompts' ? this.prompts : this.resources.get(key)?.definition === definition ? this.resources : this.templates;
    if ((map as Map<string, Entry<object>>).get(key)?.definition !== definition) return false;
    map.delete(key);
    this.touch(kind);
    return true;
  }

  private entry(kind: ListKind, key: string): Entry<unknown> | undefined {
    if (kind === 'tools') return this.tools.get(key);
    if (kind === 'prompts') return this.prompts.get(key);
    return this.resources.get(key) ?? this.templates.get(key);
  }

  /** Records a change of one list: its revision (tools) and cached pages; `announce`: its `list_changed` too. */
  private touch(kind: ListKind, announce = true): void {
    if (kind === 'tools') this.toolChanges++;
    for (const k of [...this.pages.keys()]) if (k.startsWith(`${kind === 'resources' ? 'resource' : kind}`)) this.pages.delete(k);
    if (announce) this.changed(kind);
  }

  /** One page of a list, cached by where it starts (at most one page an item), not by the cursor's spelling. */
  private page<K extends string, T>(key: K, cursor: string | undefined, items: () => T[]): Page<K, T> {
    let all = this.pages.get(key) as T[] | undefined;
    if (!all) this.pages.set(key, (all = items()));
    const offset = cursorOffset(key, cursor, all.length);
    const cacheKey = `${key}\u0000${offset}`;
    let page = this.pages.get(cacheKey) as Page<K, T> | undefined;
    if (!page) this.pages.set(cacheKey, (page = Object.freeze(pageAt(key, all, offset, this.pageSize))));
    return page;
  }
}

function enabled<D>(entry: Entry<D> | undefined): D | undefined {
  return entry?.enabled ? entry.definition : undefined;
}
