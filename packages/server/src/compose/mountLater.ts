import { ConfigError, type ToolLogger } from '@toolwright/core';
import type { Surface } from '../surface/Surface';
import type { Mount } from './Mount';
import { holdMounted, type MountedHold } from './holdMounted';
import { prepareMounts } from './mountApps';
import { mountSourceOf } from './MountSource';

/** What `app.mount` takes: mounts, or one app and its options. */
type MountArgs = readonly Mount[] | readonly [app: Mount['app'], options: Omit<Mount, 'app'>];

/**
 * `app.mount(...)`: mounts more apps into a built app. Before it serves, that is the same as
 * the `mount` option. While it serves, the new members are served from now on (connected
 * clients get list-changed notifications) after the mounted apps' start hooks ran. Once it
 * stopped, it is as before it served: the new apps start when the app starts again. Clashes, and
 * mounted tools that need an extension this app does not serve, are a `BuildError`, and nothing is mounted then.
 *
 * The mounts are checked before the start hooks run, and again once they ran, in the same step
 * as serving: meanwhile another `mount()` call or a start hook may have served a clashing name,
 * or closed a cycle. When a start hook or the second check fails, or the app stops meanwhile,
 * the apps this call started are let go again (see `holdMounted`) and nothing of the call is served.
 */
export async function mountLater(
  args: MountArgs,
  surface: Surface,
  logger: ToolLogger,
  mounts: Mount[],
  holds: MountedHold[],
  phase: { readonly started: boolean; readonly stops: number },
  /** The identifiers of the extensions this app serves: a mounted tool that needs another is refused (see `neededExtensionProblems`). */
  extensions: ReadonlySet<string>,
): Promise<void> {
  const stops = phase.stops;
  const more = mountsOf(args);
  prepareMounts(more, surface, logger, extensions);
  const taken: MountedHold[] = [];
  try {
    if (phase.started) for (const m of more) taken.push(await holdMounted(m.app));
    if (phase.stops !== stops)
      throw new ConfigError("Toolwright: the app stopped while app.mount() ran the mounted apps' start hooks; nothing was mounted. Mount them again once it serves, or before it starts again.");
    prepareMounts(more, surface, logger, extensions)(true);
  } catch (error) {
    // Nothing of these apps was served through this one yet: no wait for their work in flight.
    for (const release of taken.reverse()) await release(0);
    throw error;
  }
  mounts.push(...more);
  holds.push(...taken);
}

/** `app.mount(otherApp, { namespace })` as one mount; `app.mount(...mounts)` as they are. */
function mountsOf(args: MountArgs): readonly Mount[] {
  if (args.length !== 2 || mountSourceOf(args[0]) === undefined) return args as readonly Mount[];
  const options = args[1] as unknown;
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError(`Toolwright: app.mount(app, options) needs options such as { namespace: 'billing' }, got ${options === null ? 'null' : typeof options}.`);
  }
  return [{ ...(options as Omit<Mount, 'app'>), app: args[0] as Mount['app'] }];
}
