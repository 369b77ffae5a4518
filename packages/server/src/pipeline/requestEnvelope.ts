import { LOG_LEVELS, type LogLevel, type RequestEnvelope } from '@toolwright/core';
import {
  BAGGAGE_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  type ServerContext,
} from '../sdk/sdk';
import type { Connection } from './Connection';

/**
 * Core's view of what the client said about itself for this request: from the request's
 * `_meta` envelope on a 2026-07-28 request, from the session (initialize, logging/setLevel)
 * on a 2025-era one. Trace context comes from `_meta` in both.
 */
export function requestEnvelopeOf(ctx: ServerContext, connection: Connection): RequestEnvelope {
  const meta = ctx.mcpReq._meta;
  const trace = {
    ...stringAt(meta, TRACEPARENT_META_KEY, 'traceparent'),
    ...stringAt(meta, TRACESTATE_META_KEY, 'tracestate'),
    ...stringAt(meta, BAGGAGE_META_KEY, 'baggage'),
  };
  if (connection.era === 'modern') {
    // The SDK checked the envelope's shape before the handler ran; its type names no keys.
    const envelope: Readonly<Record<string, unknown>> = ctx.mcpReq.envelope ?? {};
    const version = envelope[PROTOCOL_VERSION_META_KEY];
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
    const info = envelope[CLIENT_INFO_META_KEY];
    const level = envelope[LOG_LEVEL_META_KEY];
    return {
      protocolVersion: typeof version === 'string' ? version : undefined,
      clientCapabilities: isObject(capabilities) ? capabilities : {},
      clientInfo:
        isObject(info) && typeof info.name === 'string' && typeof info.version === 'string'
          ? { name: info.name, version: info.version, ...(typeof info.title === 'string' && { title: info.title }) }
          : undefined,
      logLevel: isLogLevel(level) ? level : undefined,
      trace,
    };
  }
  const { server } = connection;
  return {
    protocolVersion: server.getNegotiatedProtocolVersion(),
    clientCapabilities: server.getClientCapabilities() ?? {},
    clientInfo: server.getClientVersion(),
    logLevel: connection.logLevel,
    trace,
  };
}

function stringAt<K extends string>(meta: Record<string, unknown> | undefined, key: string, as: K): { [k in K]?: string } {
  const value = meta?.[key];
  return typeof value === 'string' ? ({ [as]: value } as { [k in K]: string }) : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLogLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}
