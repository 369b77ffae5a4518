import { ConfigError } from '@toolwright/core';
import type { SessionLimits } from './SessionStore';

const DEFAULTS = { idleTimeoutMs: 30 * 60_000, maxSessions: 1000, maxSessionsPerPrincipal: 100 };

/**
 * The session limits of an endpoint (node listener or fetch handler), each checked: a limit
 * that is not a positive number would refuse every session (or none).
 */
export function sessionLimitsOf(sessions: { idleTimeoutMs?: number; maxSessions?: number; maxSessionsPerPrincipal?: number } | undefined): SessionLimits {
  const limits = {
    idleTimeoutMs: sessions?.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
    maxSessions: sessions?.maxSessions ?? DEFAULTS.maxSessions,
    maxSessionsPerPrincipal: sessions?.maxSessionsPerPrincipal ?? Math.min(DEFAULTS.maxSessionsPerPrincipal, sessions?.maxSessions ?? DEFAULTS.maxSessions),
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!(value > 0)) throw new ConfigError(`Toolwright: sessions.${name} must be a positive number of ${name === 'idleTimeoutMs' ? 'milliseconds' : 'sessions'}, not ${String(value)}.`);
  }
  return limits;
}
