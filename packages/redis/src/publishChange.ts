import type { ClusterChange } from '@toolwright/server/http';
import { GET_STREAM_ID } from '@toolwright/server/http';
import type { ClusterConnection } from './ClusterConnection';
import { isObject } from './parseJson';
import type { EventLimits } from './redisEventStore';
import { runCommand } from './runCommand';

const LIST_CHANGED = { tools: 'notifications/tools/list_changed', resources: 'notifications/resources/list_changed', prompts: 'notifications/prompts/list_changed' } as const;

/** `Cluster.publish`: stores the change's notification in every session's events (GET stream) and tells the other instances on the changes channel. */
export async function publishChange({ redis, keys, origin }: ClusterConnection, limits: Pick<EventLimits, 'maxEvents' | 'maxEventBytes' | 'maxEventBytesTotal'>, change: ClusterChange): Promise<void> {
  const [message, uri] =
    'resourceUpdated' in change
      ? [{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: change.resourceUpdated } }, change.resourceUpdated]
      : [{ jsonrpc: '2.0', method: LIST_CHANGED[change.list] }, ''];
  await runCommand(() =>
    redis.twBroadcast(
      keys.sessions,
      Date.now(),
      keys.prefix,
      JSON.stringify(message),
      uri,
      limits.maxEvents,
      origin,
      JSON.stringify(change),
      GET_STREAM_ID,
      limits.maxEventBytes,
      limits.maxEventBytesTotal,
    ),
  );
}

/** A change as `publishChange` sends it; anything else on the channel is dropped. */
export function isChange(value: unknown): value is ClusterChange {
  if (!isObject(value)) return false;
  if (Object.hasOwn(value, 'resourceUpdated')) return typeof value.resourceUpdated === 'string';
  return typeof value.list === 'string' && Object.hasOwn(LIST_CHANGED, value.list);
}
