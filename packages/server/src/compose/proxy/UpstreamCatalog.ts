import type { CompiledRegistry } from '@toolwright/core/internal';
import { Catalog, type CatalogParts, type ListKind } from '../../surface/Catalog';
import type { ChangeNotifier } from '../../surface/Connections';
import { listWithin } from './listWithin';
import { proxyDefinitions, type ProxyRuntime, type UpstreamLists } from './proxyDefinitions';
import type { ProxyState } from './ProxyState';
import { MAX_FOLLOWED } from './UpstreamFollower';

const EMPTY: CatalogParts = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

/**
 * The upstream's lists as the catalog a mounting app serves: fetched on the proxy's own session,
 * fetched again when the upstream says one changed, and each change announced to the mounting
 * apps' sessions once.
 */
export class UpstreamCatalog {
  readonly catalog: Catalog;
  private readonly notifiers = new Set<ChangeNotifier>();
  /** The class the upstream's members are defined on, named `Proxy(<name>)` in messages. */
  private readonly target: new () => object;
  private lists: UpstreamLists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  private served: CatalogParts = EMPTY;
  private quiet = false;
  /** The lists being fetched again now, each marked when another change came meanwhile, and whether only a list that differs is served. */
  private readonly relisting = new Map<ListKind, { again: boolean; onlyIfChanged: boolean }>();

  constructor(
    name: string | undefined,
    private readonly runtime: ProxyRuntime,
    private readonly state: ProxyState,
  ) {
    this.catalog = new Catalog(EMPTY as CompiledRegistry, undefined, (kind) => this.announce(kind));
    const target = `Proxy(${name ?? 'upstream'})`;
    this.target = { [target]: class {} }[target];
  }

  /** Tells `notifier` of every list change and resource update from now on; returns the function that stops it. */
  addNotifier(notifier: ChangeNotifier): () => void {
    this.notifiers.add(notifier);
    return () => void this.notifiers.delete(notifier);
  }

  resourceUpdated(uri: string): void {
    this.notifiers.forEach((n) => n.resourceUpdated(uri));
  }

  /**
   * Lists `kind` again after the upstream said it changed: one listing of a list at a time, and
   * one more after it when another change came meanwhile, so a slow answer to an older listing
   * never replaces a newer one, and a flood of changes costs one listing in flight. With
   * `onlyIfChanged` (a check, not a change the upstream told of), a list the same as the one
   * served is left as it is, and the parent's clients hear of no change.
   */
  relist(kind: ListKind, onlyIfChanged = false): void {
    const running = this.relisting.get(kind);
    if (running) {
      running.again = true;
      running.onlyIfChanged &&= onlyIfChanged;
      return;
    }
    const entry = { again: false, onlyIfChanged };
    this.relisting.set(kind, entry);
    void (async () => {
      do {
        entry.again = false;
        const onlyIfDiffers = entry.onlyIfChanged;
        entry.onlyIfChanged = true;
        await this.refresh(kind, onlyIfDiffers).catch((error: unknown) => {
          // A stop closes the session under a listing: nothing failed that anyone waits for.
          if (!this.state.stopped) this.runtime.logger.warn(`${this.state.label}: relisting ${kind} failed: ${(error as Error).message}`);
        });
      } while (entry.again && !this.state.stopped);
      this.relisting.delete(kind);
    })();
  }

  /**
   * Fetches one of the upstream's lists again (on the proxy's own session) and serves it in place
   * of the old one; with `onlyIfChanged`, only when it differs from the list served.
   */
  async refresh(kind: ListKind, onlyIfChanged = false): Promise<void> {
    const client = this.runtime.control();
    if (!client) return;
    const before = this.lists;
    const caps = client.getServerCapabilities() ?? {};
    const ms = this.runtime.listTimeoutMs;
    if (kind === 'tools') this.lists = { ...this.lists, tools: caps.tools ? (await listWithin('tools/list', ms, (o) => client.listTools(undefined, o))).tools : [] };
    if (kind === 'prompts') this.lists = { ...this.lists, prompts: caps.prompts ? (await listWithin('prompts/list', ms, (o) => client.listPrompts(undefined, o))).prompts : [] };
    if (kind === 'resources') {
      const resources = caps.resources ? (await listWithin('resources/list', ms, (o) => client.listResources(undefined, o))).resources : [];
      const resourceTemplates = caps.resources ? (await listWithin('resources/templates/list', ms, (o) => client.listResourceTemplates(undefined, o))).resourceTemplates : [];
      this.lists = { ...this.lists, resources, resourceTemplates };
    }
    if (onlyIfChanged && sameLists(before, this.lists, kind)) return;
    this.replace(kind, proxyDefinitions(this.lists, this.target, this.runtime));
    if (kind === 'resources') for (const r of this.lists.resources.slice(0, MAX_FOLLOWED)) this.runtime.wanted(r.uri);
  }

  /** Swaps one list's definitions in the catalog and announces the change once. */
  private replace(kind: ListKind, next: CatalogParts): void {
    const old = this.served;
    this.quiet = true;
    try {
      if (kind === 'tools') old.tools.forEach((t) => this.catalog.remove('tools', t.name));
      if (kind === 'prompts') old.prompts.forEach((p) => this.catalog.remove('prompts', p.name));
      if (kind === 'resources') [...old.resources.map((r) => r.uri), ...old.resourceTemplates.map((t) => t.uriTemplate)].forEach((k) => this.catalog.remove('resources', k));
      const part: CatalogParts = {
        tools: kind === 'tools' ? next.tools : [],
        prompts: kind === 'prompts' ? next.prompts : [],
        resources: kind === 'resources' ? next.resources : [],
        resourceTemplates: kind === 'resources' ? next.resourceTemplates : [],
      };
      this.catalog.addRegistry(part, false);
      this.served = {
        tools: kind === 'tools' ? next.tools : old.tools,
        prompts: kind === 'prompts' ? next.prompts : old.prompts,
        resources: kind === 'resources' ? next.resources : old.resources,
        resourceTemplates: kind === 'resources' ? next.resourceTemplates : old.resourceTemplates,
      };
    } finally {
      this.quiet = false;
    }
    this.announce(kind);
  }

  private announce(kind: ListKind): void {
    if (this.quiet) return;
    for (const n of this.notifiers) {
      if (kind === 'tools') n.toolsChanged();
      else if (kind === 'prompts') n.promptsChanged();
      else n.resourcesChanged();
    }
  }
}

/** Whether two fetches of the upstream's lists hold the same `kind` list, as its wire JSON. */
function sameLists(a: UpstreamLists, b: UpstreamLists, kind: ListKind): boolean {
  if (kind === 'tools') return JSON.stringify(a.tools) === JSON.stringify(b.tools);
  if (kind === 'prompts') return JSON.stringify(a.prompts) === JSON.stringify(b.prompts);
  return JSON.stringify([a.resources, a.resourceTemplates]) === JSON.stringify([b.resources, b.resourceTemplates]);
}
