import { UsageError } from '../cli/UsageError';

/**
 * The client's config file with one server entry added or replaced, every other key kept:
 * `entry` is what `clientConfig` returns, `{ <section>: { <name>: {...} } }`.
 */
export function mergeClientConfig(existing: string | undefined, entry: Record<string, unknown>, file: string): { text: string; replaced: boolean } {
  let config: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== '') {
    try {
      config = JSON.parse(existing) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`${file} is not plain JSON (${(error as Error).message}); comments are not kept either. Fix it, or add the snippet of 'toolwright config' by hand.`);
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new UsageError(`${file} does not hold a JSON object. Fix it, or add the snippet of 'toolwright config' by hand.`);
  }
  let replaced = false;
  for (const [section, servers] of Object.entries(entry)) {
    const current = config[section];
    if (current !== undefined && (typeof current !== 'object' || current === null || Array.isArray(current))) throw new UsageError(`${file}: "${section}" is not an object. Fix it, or add the snippet by hand.`);
    const merged = { ...(current as Record<string, unknown> | undefined) };
    for (const [name, server] of Object.entries(servers as Record<string, unknown>)) {
      replaced ||= name in merged;
      merged[name] = server;
    }
    config[section] = merged;
  }
  return { text: `${JSON.stringify(config, null, 2)}\n`, replaced };
}
