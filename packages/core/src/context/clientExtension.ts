import type { RequestEnvelope } from './RequestEnvelope';

/**
 * The settings the client declared for extension `id` in `capabilities.extensions` (at
 * `initialize` in the 2025 era, in each 2026-07-28 request's `_meta`), or undefined when it
 * did not declare it. An extension declared without settings gives `{}`.
 *
 * @example
 * if (clientExtension(ctx.envelope, 'io.modelcontextprotocol/ui')) { ... }
 */
export function clientExtension(envelope: Pick<RequestEnvelope, 'clientCapabilities'>, id: string): Readonly<Record<string, unknown>> | undefined {
  const declared = declaredExtensions(envelope);
  // A wire name: only the client's own keys count, never Object.prototype's.
  if (!declared || !Object.hasOwn(declared, id)) return undefined;
  const settings = declared[id];
  return isObject(settings) ? settings : {};
}

/** The identifiers of every extension the client declared for this request. */
export function clientExtensionIds(envelope: Pick<RequestEnvelope, 'clientCapabilities'>): string[] {
  const declared = declaredExtensions(envelope);
  return declared ? Object.keys(declared) : [];
}

function declaredExtensions(envelope: Pick<RequestEnvelope, 'clientCapabilities'>): Record<string, unknown> | undefined {
  const capabilities = envelope.clientCapabilities;
  if (!isObject(capabilities) || !Object.hasOwn(capabilities, 'extensions')) return undefined;
  const extensions = capabilities.extensions;
  return isObject(extensions) ? extensions : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
