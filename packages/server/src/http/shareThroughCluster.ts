import { ConfigError } from '@toolwright/core';
import { bindSessionState } from '../pipeline/sessionState';
import { sdkServer } from '../sdk/sdkServer';
import type { ServerFactory } from '../serving/ServerFactory';
import type { Cluster, ClusterChange, SessionRecord } from './Cluster';
import { cancellationsOf, foreignAnswers, leaveFanOutToCluster, recordAcceptedChanges, restoreRequests, routeRoundTrips } from './clusterMessages';
import { rpcRefusal, type HttpRefusal } from './HttpRefusal';
import type { SessionTransport } from './HttpSession';
import { sessionRules } from './sessionRules';
import type { SessionLimits } from './SessionStore';
import type { LocalSessions, SessionRequest, SessionSharing, SharedSession } from './SessionSharing';

/** What a cluster needs of a session's transport beyond a `SessionTransport`'s basics. */
type ClusterTransport = SessionTransport & Required<Pick<SessionTransport, 'restore' | 'deliver'>>;

/**
 * Sessions shared by the instances of `cluster`: the record in the shared store is the
 * truth, and each instance serves a session through a local copy (a server and transport)
 * made from it. Closing a copy here ends nothing elsewhere. Runtime-neutral: the node listener
 * and the fetch handler share sessions through it alike, each with its own transport.
 * `logError` hears of what failed in the background (publishing, relaying).
 */
export function shareThroughCluster(app: ServerFactory, cluster: Cluster, limits: SessionLimits, logError: (message: string) => void): SessionSharing {
  if (typeof cluster.sessions?.peek !== 'function') {
    throw new ConfigError(
      'Toolwright: `cluster.sessions` has no `peek(id, principal)`. Add it to your Cluster: it resolves to the session record as `touch` does, without pushing its expiry back (see `SharedSessions` in @toolwright/server/http), so a refused request renews no session.',
    );
  }
  /** The POST streams of this instance's copies get ids no other instance uses. */
  const instanceId = crypto.randomUUID().slice(0, 8);
  /** Copies being made of sessions opened elsewhere, so concurrent requests make one. */
  const restoring = new Map<string, Promise<SharedSession>>();
  /** The log level each local copy was last given. */
  const copiedLevel = new WeakMap<SharedSession, string | undefined>();

  /**
   * Pushes the session's expiry back in the cluster, in the background: a request that used it
   * does not wait for it. A session found gone meanwhile (ended, expired) loses its copy here.
   * A failure is dropped: the store reports its outages, and the session's next request sees it.
   */
  function renew(id: string, principal: string | undefined, local: LocalSessions): void {
    cluster.sessions.touch(id, limits.idleTimeoutMs, principal).then(
      (record) => {
        const copy = record ? undefined : local.get(id);
        if (copy && copy.principal === principal) void local.close(copy, 'expired or ended elsewhere');
      },
      () => {},
    );
  }

  /** The session's local copy, made from its record if this instance has none yet; its log level brought up to date. */
  async function copyOf(record: SessionRecord, local: LocalSessions): Promise<SharedSession> {
    let session = local.touch(record.id);
    if (!session) {
      let pending = restoring.get(record.id);
      if (!pending) {
        pending = local.start(record).finally(() => restoring.delete(record.id));
        restoring.set(record.id, pending);
      }
      session = await pending;
    }
    if (copiedLevel.get(session) !== record.logLevel && record.logLevel) {
      copiedLevel.set(session, record.logLevel);
      await clusterTransport(session).restore([{ method: 'logging/setLevel', params: { level: record.logLevel } }]);
    }
    return session;
  }

  /**
   * The record of the session a request names (if the request's principal opened it), once
   * the client's answers and cancellations meant for other instances are relayed to them,
   * with the body left for this instance; or the answer, when the store is unreachable (503),
   * the request's MCP-Protocol-Version is not the session's (400: nothing ended, relayed or
   * copied), or nothing is left for this instance (202). The record is read, not renewed: the
   * session is renewed once it accepted the request (`used`, or here for that 202), so a refused
   * request keeps nothing alive. What the request changes in the session is recorded once its
   * server accepted it (see `recordAcceptedChanges`).
   */
  async function settle(
    id: string,
    { method, body, principal, protocolVersion }: SessionRequest,
    local: LocalSessions,
  ): Promise<{ record: SessionRecord | undefined; body: unknown } | { answer: HttpRefusal }> {
    try {
      const record = await cluster.sessions.peek(id, principal);
      if (!record || record.principal !== principal) return { record: undefined, body };
      // Refused as the session pool refuses it, before anything outlives the refusal (an ended session, a relayed answer or cancellation, a copy).
      const mismatch = sessionRules.version(protocolVersion, record.protocolVersion);
      if (mismatch) return { answer: mismatch };
      // Every check passed: the session's transport accepts the DELETE (200).
      if (method === 'DELETE') await cluster.sessions.end(id);
      if (method !== 'POST') return { record, body };
      const split = foreignAnswers(body, instanceId);
      for (const answer of split.foreign) await cluster.relay(answer.instance, id, answer.message);
      for (const cancel of cancellationsOf(body)) await cluster.relay('*', id, cancel);
      if (split.foreign.length > 0 && (split.body === undefined || (Array.isArray(split.body) && split.body.length === 0))) {
        // Accepted (202) without this instance's copy: the session was used all the same.
        renew(id, principal, local);
        return { answer: { status: 202, body: undefined, headers: { 'mcp-session-id': id } } };
      }
      return { record, body: split.body };
    } catch (error) {
      return { answer: refuseClusterDown(error) };
    }
  }

  return {
    localStore: 'copies',
    streamIdPrefix: `${instanceId}-`,

    listen(local) {
      const onError = (error: Error) => logError(`toolwright http: cluster: ${error.message}`);
      const stopPublishing = publishChanges(app, cluster, onError);
      const stopEnding = cluster.sessions.onEnded((id) => {
        const copy = local.get(id);
        if (copy) void local.close(copy, 'ended on another instance');
      });
      // Answers to this instance's server-to-client requests that reached another instance.
      const stopRelay = cluster.onRelay(instanceId, (id, message) => {
        const copy = local.get(id);
        if (copy && !copy.closed) clusterTransport(copy).deliver(message as never);
      });
      stopRelay.catch(onError);
      const keepOpenAlive = keepOpenSessionsAlive(cluster, limits, local);
      return () => {
        clearInterval(keepOpenAlive);
        stopPublishing();
        stopEnding();
        void stopRelay.then(
          (stop) => stop(),
          () => {},
        );
      };
    },

    create: (record) => cluster.sessions.create(record, limits),

    discard: (id) => cluster.sessions.end(id),

    async find(id, request, local) {
      const settled = await settle(id, request, local);
      if ('answer' in settled) return settled;
      const { record, body } = settled;
      if (!record) {
        // Gone from the cluster: its copy here goes too; unless it is another caller's, whose request proves nothing.
        const stale = local.get(id);
        if (stale && stale.principal === request.principal) void local.close(stale, 'expired or ended elsewhere');
        return { session: undefined, body };
      }
      return { session: await copyOf(record, local), body };
    },

    used(session, local) {
      // A DELETE ended it: there is nothing left to renew.
      if (!session.closed) renew(session.id, session.principal, local);
    },

    wire(id, server, transport) {
      if (!transport.restore || !transport.deliver) {
        throw new ConfigError(
          "Toolwright: `cluster` needs a session transport that can take over a session opened elsewhere (restore, deliver); the SDK's node transport cannot. Remove httpTransport: 'sdk'.",
        );
      }
      leaveFanOutToCluster(transport);
      bindSessionState(sdkServer(server), cluster.sessionState(id));
    },

    async connected(session, record) {
      routeRoundTrips(session.transport, instanceId);
      if (record) {
        await clusterTransport(session).restore(restoreRequests(record));
        copiedLevel.set(session, record.logLevel);
      }
      recordAcceptedChanges(session.transport, (change) => cluster.sessions.update(session.id, change));
    },

    refuse: refuseClusterDown,
  };
}

/** A session with a request or GET stream open here does not expire (as in memory): its record is kept alive meanwhile. */
function keepOpenSessionsAlive(cluster: Cluster, limits: SessionLimits, local: LocalSessions): ReturnType<typeof setInterval> {
  const timer = setInterval(
    () => {
      for (const session of local.values()) {
        if (session.open === 0 || session.closed) continue;
        cluster.sessions.touch(session.id, limits.idleTimeoutMs, session.principal).then(
          (record) => void (record ? undefined : local.close(session, 'expired or ended elsewhere')),
          () => {},
        );
      }
    },
    Math.max(500, Math.min(60_000, Math.floor(limits.idleTimeoutMs / 3))),
  );
  // node and Bun: never keep the process alive for it (Deno and workerd timers have no unref).
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** Publishes every change made on this instance to the cluster; returns the function that stops it. */
function publishChanges(app: ServerFactory, cluster: Cluster, onError: (error: Error) => void): () => void {
  const publish = (change: ClusterChange) => void cluster.publish(change).catch(onError);
  return app.addNotifier({
    toolsChanged: () => publish({ list: 'tools' }),
    promptsChanged: () => publish({ list: 'prompts' }),
    resourcesChanged: () => publish({ list: 'resources' }),
    resourceUpdated: (uri) => publish({ resourceUpdated: uri }),
  });
}

/** The answer to a request the cluster's store could not serve (unreachable, timed out): 503, nothing half done. */
function refuseClusterDown(error: unknown): HttpRefusal {
  const why = (error as Error)?.message ?? String(error);
  return rpcRefusal(503, -32000, `Service unavailable: the shared session store is unreachable (${why}). Retry shortly; no session was lost.`, { 'Retry-After': '1' });
}

/** The session's transport, which `wire` checked can serve a cluster. */
function clusterTransport(session: SharedSession): ClusterTransport {
  return session.transport as ClusterTransport;
}
