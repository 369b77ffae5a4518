import { BuildError, ConfigError, type BuildProblem, type Class, type ToolLogger, type ToolTransforms } from '@toolwright/core';
import type { Catalog, CatalogParts } from '../surface/Catalog';
import type { Surface } from '../surface/Surface';
import type { Mount } from './Mount';
import { mountSourceOf, type MountSource } from './MountSource';
import { MAX_TOOL_NAME, MountedApp } from './MountedApp';

const NAMESPACE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Who serves a name or URI, for a collision message: `Class.method`, with the mount's namespace. */
interface Owner {
  readonly key: string;
  readonly label: string;
  readonly who: string;
}

/**
 * Serves each mounted app's members from `surface`'s catalog: tools and prompts renamed
 * `<namespace>_<name>`, resources and templates under their own URIs, each run inside the
 * mounted app's middleware (and the parent's, around it), with the timeouts and limits the
 * mounted app sets (the parent's where it sets none). The names and URIs
 * are checked against the parent's own and each other's first: every clash is one problem of
 * the `BuildError`, and so is every mounted tool that needs an extension the parent does not
 * serve (`extensions`: the identifiers of the parent's; see `neededExtensionProblems`).
 * Later list changes in a mounted app reach the parent's clients; a member the parent itself
 * disabled or removed stays so through them.
 * Returns the function that stops following them.
 */
export function mountApps(mounts: readonly Mount[] | undefined, surface: Surface, logger: ToolLogger, extensions: ReadonlySet<string>): () => void {
  return prepareMounts(mounts, surface, logger, extensions)(false);
}

/**
 * `mountApps` in two steps: checks the mounts against what `surface` serves now (throwing the
 * `BuildError` or `ConfigError`), and returns the function that starts serving them, telling connected clients when `announce`
 * (and returns the function that stops following them).
 */
export function prepareMounts(mounts: readonly Mount[] | undefined, surface: Surface, logger: ToolLogger, extensions: ReadonlySet<string>): (announce: boolean) => () => void {
  if (mounts === undefined) return () => () => undefined;
  if (!Array.isArray(mounts)) throw new ConfigError("Toolwright: `mount` must be an array: `mount: [{ app: billingApp, namespace: 'billing' }]`.");
  const problems: BuildProblem[] = [];
  const mounted = mounts.map((m, i) => new MountedApp(sourceOf(m, i, surface.catalog), m.namespace, transformsOf(m, i), problems, appNameOf(m), extensions));
  const owners = new Map<string, Owner>();
  const claim = (owner: Owner) => {
    const first = owners.get(owner.key);
    if (first)
      problems.push({
        where: owner.label,
        what: `served by both ${first.who} and ${owner.who}`,
        fix: "rename one of them (its decorator's `name` or `uri`), choose another namespace, or disable one before mounting.",
      });
    else owners.set(owner.key, owner);
  };
  for (const owner of ownersOf(surface.catalog.enabledParts(), 'this app')) claim(owner);
  for (const m of mounted) {
    const parts = m.parts();
    m.checkTransformNames();
    for (const t of parts.tools) {
      if (t.name.length > MAX_TOOL_NAME)
        problems.push({
          where: `tool '${t.name}'`,
          what: `is ${t.name.length} characters long under namespace '${m.namespace}'; tool names may have at most ${MAX_TOOL_NAME}`,
          fix: 'choose a shorter namespace or tool name.',
        });
    }
    problems.push(...m.neededExtensionProblems(parts.tools));
    for (const owner of ownersOf(parts, `mount '${m.namespace}'`)) claim(owner);
  }
  if (problems.length > 0) throw new BuildError(problems);
  return (announce) => {
    for (const m of mounted) m.serve(surface, logger, announce);
    for (const m of mounted) mountedInto(surface.catalog).add(m.catalog);
    return () =>
      mounted.forEach((m) => {
        m.stop();
        mountedInto(surface.catalog).delete(m.catalog);
      });
  };
}

/** The catalogs of the apps each app mounts (directly), to refuse a mount that would serve an app inside itself. */
const mountsOf = new WeakMap<Catalog, Set<Catalog>>();

function mountedInto(catalog: Catalog): Set<Catalog> {
  let inner = mountsOf.get(catalog);
  if (!inner) mountsOf.set(catalog, (inner = new Set()));
  return inner;
}

/** Whether the app of `from` serves the one of `target`, itself or through the apps it mounts. */
function serves(from: Catalog, target: Catalog, seen = new Set<Catalog>()): boolean {
  if (from === target) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  for (const inner of mountsOf.get(from) ?? []) if (serves(inner, target, seen)) return true;
  return false;
}

function sourceOf(mount: Mount, index: number, parent: Catalog): MountSource {
  if (typeof mount !== 'object' || mount === null) throw new ConfigError(`Toolwright: mount[${index}] must be { app, namespace }, got ${mount === null ? 'null' : typeof mount}.`);
  const source = mountSourceOf(mount.app);
  if (!source) throw new ConfigError(`Toolwright: mount[${index}].app is not an app made by createApp(). Build it with \`await createApp({ ... })\` and pass the result.`);
  if (typeof mount.namespace !== 'string' || !NAMESPACE.test(mount.namespace)) {
    throw new ConfigError(
      `Toolwright: mount[${index}].namespace must be 1-64 letters, digits, '_', '.' or '-' (it prefixes tool names as '<namespace>_<name>'), got ${JSON.stringify(mount.namespace)}.`,
    );
  }
  // Each list change of one would change the other's, without end: the names grow until they are too long.
  if (serves(source.catalog, parent)) {
    throw new ConfigError(
      `Toolwright: mount[${index}].app (namespace '${mount.namespace}') is this app, or an app that already serves it through its own mounts: each would serve the other's members without end. Mount each app into one that does not serve it.`,
    );
  }
  return source;
}

function ownersOf(parts: CatalogParts, where: string): Owner[] {
  const who = (m: { readonly target: Class; readonly methodName: string }) => `${m.target.name}.${m.methodName} (${where})`;
  return [
    ...parts.tools.map((t) => ({ key: `tool\u0000${t.name}`, label: `tool '${t.name}'`, who: who(t) })),
    ...parts.prompts.map((p) => ({ key: `prompt\u0000${p.name}`, label: `prompt '${p.name}'`, who: who(p) })),
    ...parts.resources.map((r) => ({ key: `resource\u0000${r.uri}`, label: `resource '${r.uri}'`, who: who(r) })),
    ...parts.resourceTemplates.map((t) => ({ key: `template\u0000${t.uriTemplate}`, label: `resource template '${t.uriTemplate}'`, who: who(t) })),
  ];
}

/** The mounted app's name (`createApp({ name })`, or the proxy's), for messages. */
function appNameOf(mount: Mount): string {
  const name = (mount.app as { name?: unknown }).name;
  return typeof name === 'string' ? name : '(unnamed)';
}

function transformsOf(mount: Mount, index: number): ToolTransforms {
  const transforms = mount.transforms;
  if (transforms === undefined) return {};
  if (typeof transforms !== 'object' || transforms === null || Array.isArray(transforms)) {
    throw new ConfigError(`Toolwright: mount[${index}].transforms must map tool names to transforms: { create_invoice: { description: '...' } }.`);
  }
  return transforms;
}
