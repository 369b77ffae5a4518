import type { ServerFactory } from '../serving/ServerFactory';
import type { ChangeNotifier } from '../surface/Connections';
import type { Cluster } from './Cluster';

/** Tells `notifier` of the changes made on this instance and, with a cluster, on every other; returns the function that stops it. */
export function listenToChanges(app: ServerFactory, cluster: Cluster | undefined, notifier: ChangeNotifier): () => void {
  const local = app.addNotifier(notifier);
  if (!cluster) return local;
  const remote = cluster.onChange((change) => {
    if ('resourceUpdated' in change) notifier.resourceUpdated(change.resourceUpdated);
    else if (change.list === 'tools') notifier.toolsChanged();
    else if (change.list === 'prompts') notifier.promptsChanged();
    else notifier.resourcesChanged();
  });
  return () => {
    local();
    remote();
  };
}
