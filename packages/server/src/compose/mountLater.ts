import { ConfigError, type ToolLogger } from '@toolwright/core';
import type { Surface } from '../surface/Surface';
import type { Mount } from './Mount';
import { prepareMounts } from './mountApps';

/**
 * `app.mount(...)`: mounts more apps into a built app. Before it serves, that is the same as
 * the `mount` option. While it serves, the new members are served from now on (connected
 * clients get list-changed notifications) after the mounted apps' start hooks ran. Once it
 * stopped, it refuses. Clashes are a `BuildError`, and nothing is mounted then.
 */
export async function mountLater(more: readonly Mount[], surface: Surface, logger: ToolLogger, mounts: Mount[], phase: { readonly started: boolean; readonly stopped: boolean }): Promise<void> {
  if (phase.stopped) throw new ConfigError('Toolwright: app.mount() was called after the app stopped. Mount apps before the app serves, or while it serves.');
  const serve = prepareMounts(more, surface, logger);
  if (phase.started) for (const m of more) await m.app.start();
  if (phase.stopped) throw new ConfigError("Toolwright: the app stopped while app.mount() ran the mounted apps' start hooks; nothing was mounted.");
  serve(true);
  mounts.push(...more);
}
