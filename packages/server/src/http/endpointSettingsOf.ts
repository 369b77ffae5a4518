import { createAuthenticator, type AuthOutcome, type BearerSource } from '../auth/authenticateRequest';
import { protectedResourceMetadata } from '../auth/protectedResourceMetadata';
import type { ServerFactory } from '../serving/ServerFactory';
import { createCors, type Cors } from './cors';
import { createRequestRules, type RequestRules } from './createRequestRules';
import type { EndpointOptions } from './EndpointOptions';
import { InitializeRateLimit } from './InitializeRateLimit';
import { createOriginPolicy } from './originPolicy';
import { sessionLimitsOf } from './sessionLimitsOf';
import type { SessionLimits } from './SessionStore';
import type { SessionSharing } from './SessionSharing';
import { shareThroughCluster } from './shareThroughCluster';
import { singleInstance } from './singleInstance';
import { endpointPathOf } from './endpointPathOf';

/** What an endpoint's `EndpointOptions` come to, the same for the node listener and the fetch handler. */
export interface EndpointSettings {
  readonly mcpPath: string;
  readonly stateless: boolean;
  readonly jsonResponse: boolean;
  readonly maxBodyBytes: number;
  readonly maxUrlLength: number;
  readonly bodyTimeoutMs: number;
  readonly health: boolean;
  /** The endpoint's rules: Host, Origin, methods, headers, body, versions, scopes, health and metadata paths. */
  readonly rules: RequestRules;
  /** Bearer auth, when `auth` is given. */
  readonly authenticate: ((req: BearerSource) => Promise<AuthOutcome>) | undefined;
  /** CORS, when `cors` is given. */
  readonly cors: Cors | undefined;
  readonly limits: SessionLimits;
  /** The `initialize` rate per owner; undefined when turned off. */
  readonly initializeRate: InitializeRateLimit | undefined;
  /** Where 2025-era sessions are recorded and found: this instance alone, or the `cluster`. */
  readonly sharing: SessionSharing;
}

const DEFAULTS = { maxBodyBytes: 4 * 1024 * 1024, maxUrlLength: 8192, bodyTimeoutMs: 30_000 };

/**
 * Reads and checks an endpoint's options once, for whichever runtime serves it. With a
 * `cluster` that shares accepted round states, the app accepts each 2026-07-28 round state once
 * across the cluster. `logError` hears of what the cluster fails at in the background.
 */
export function endpointSettingsOf<Req>(app: ServerFactory, options: EndpointOptions<Req>, logError: (message: string) => void): EndpointSettings {
  const mcpPath = endpointPathOf(options.path);
  const stateless = options.stateless === true;
  const auth = options.auth ?? app.oauth?.auth;
  const metadata = auth ? protectedResourceMetadata(auth) : undefined;
  const limits = sessionLimitsOf(options.sessions);
  const cluster = options.cluster;
  if (cluster?.usedStates) app.shareUsedStates?.(cluster.usedStates);
  return {
    mcpPath,
    stateless,
    jsonResponse: options.jsonResponse === true,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    maxUrlLength: options.maxUrlLength ?? DEFAULTS.maxUrlLength,
    bodyTimeoutMs: options.timeouts?.bodyMs ?? DEFAULTS.bodyTimeoutMs,
    health: options.health !== false,
    rules: createRequestRules(app, { mcpPath, stateless, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins, metadata }),
    authenticate: auth && metadata ? createAuthenticator(auth, metadata) : undefined,
    cors: options.cors ? createCors(options.cors === true ? {} : options.cors, createOriginPolicy(options.allowedOrigins)) : undefined,
    limits,
    initializeRate: options.sessions?.initializeRate === false ? undefined : new InitializeRateLimit(options.sessions?.initializeRate),
    sharing: cluster && !stateless ? shareThroughCluster(app, cluster, limits, logError) : singleInstance,
  };
}
