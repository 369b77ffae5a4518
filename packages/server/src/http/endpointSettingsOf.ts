import { ConfigError } from '@toolwright/core';
import { createAuthenticator, type AuthOutcome, type BearerSource } from '../auth/authenticateRequest';
import { protectedResourceMetadata } from '../auth/protectedResourceMetadata';
import type { ServerFactory } from '../serving/ServerFactory';
import { createCors, type Cors } from './cors';
import { createRequestRules, type RequestRules } from './createRequestRules';
import type { EndpointOptions } from './EndpointOptions';
import { DEFAULT_INITIALIZE_RATE, InitializeRateLimit, type InitializeRate } from './InitializeRateLimit';
import { createOriginPolicy } from './originPolicy';
import { sessionLimitsOf } from './sessionLimitsOf';
import type { SessionLimits } from './SessionStore';
import type { SessionSharing } from './SessionSharing';
import { shareThroughCluster } from './shareThroughCluster';
import { singleInstance } from './singleInstance';
import { endpointPathOf } from './endpointPathOf';
import { TIMER_MS, wholeNumberOption } from './wholeNumberOption';

/** What an endpoint's `EndpointOptions` come to, the same for the node listener and the fetch handler. */
export interface EndpointSettings {
  readonly mcpPath: string;
  readonly stateless: boolean;
  readonly jsonResponse: boolean;
  readonly maxBodyBytes: number;
  /** Unsent bytes of a stream past which the next chunk drops it. */
  readonly maxBufferedBytes: number;
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

const DEFAULTS = { maxBodyBytes: 4 * 1024 * 1024, maxUrlLength: 8192, bodyTimeoutMs: 30_000, maxBufferedBytes: 16 * 1024 * 1024, corsMaxAgeSeconds: 600 };

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
  // Read by the transports and CORS as given: checked here, so a bad value fails the start, not each request.
  wholeNumberOption('sseRetryMs', options.sseRetryMs, { ...TIMER_MS, min: 0, example: 3000 });
  if (options.cors && typeof options.cors === 'object') wholeNumberOption('cors.maxAgeSeconds', options.cors.maxAgeSeconds, { unit: 'seconds', min: 0, byDefault: DEFAULTS.corsMaxAgeSeconds });
  if (cluster?.usedStates) app.shareUsedStates?.(cluster.usedStates);
  return {
    mcpPath,
    stateless,
    jsonResponse: options.jsonResponse === true,
    maxBodyBytes: wholeNumberOption('maxBodyBytes', options.maxBodyBytes, { unit: 'bytes', min: 1, unlimited: true, byDefault: DEFAULTS.maxBodyBytes }),
    maxBufferedBytes: wholeNumberOption('maxBufferedBytes', options.maxBufferedBytes, { unit: 'bytes', min: 1, unlimited: true, byDefault: DEFAULTS.maxBufferedBytes }),
    maxUrlLength: wholeNumberOption('maxUrlLength', options.maxUrlLength, { unit: 'characters', min: 1, unlimited: true, byDefault: DEFAULTS.maxUrlLength }),
    bodyTimeoutMs: wholeNumberOption('timeouts.bodyMs', options.timeouts?.bodyMs, { ...TIMER_MS, min: 1, byDefault: DEFAULTS.bodyTimeoutMs }),
    health: options.health !== false,
    rules: createRequestRules(app, { mcpPath, stateless, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins, metadata }),
    authenticate: auth && metadata ? createAuthenticator(auth, metadata) : undefined,
    cors: options.cors ? createCors(options.cors === true ? {} : options.cors, createOriginPolicy(options.allowedOrigins)) : undefined,
    limits,
    initializeRate: options.sessions?.initializeRate === false ? undefined : new InitializeRateLimit(checkedInitializeRate(options.sessions?.initializeRate)),
    sharing: cluster && !stateless ? shareThroughCluster(app, cluster, limits, logError) : singleInstance,
  };
}

/** `sessions.initializeRate`, checked: the limiter would clamp a burst under 1 and take NaN as a rate that refuses nothing. */
function checkedInitializeRate(rate: InitializeRate | undefined): InitializeRate | undefined {
  if (rate === undefined) return undefined;
  wholeNumberOption('sessions.initializeRate.burst', rate.burst, { unit: 'initialize requests', min: 1, byDefault: DEFAULT_INITIALIZE_RATE.burst });
  const perMinute: unknown = rate.perMinute;
  if (perMinute !== undefined && !(typeof perMinute === 'number' && Number.isFinite(perMinute) && perMinute > 0)) {
    throw new ConfigError(
      `Toolwright: the HTTP option sessions.initializeRate.perMinute must be a positive number (initialize requests per minute), got ${String(perMinute)}. Set it to a number such as perMinute: ${DEFAULT_INITIALIZE_RATE.perMinute}, or leave it out for that default; initializeRate: false turns the limit off.`,
    );
  }
  return rate;
}
