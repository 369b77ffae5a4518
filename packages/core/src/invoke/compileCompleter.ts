import type { CompleteArgument } from '../registry/CompiledRegistry';
import type { ToolLogger } from '../context/ToolContext';
import type { Completer } from '../metadata/Completer';

/** The most values one `completion/complete` answer may carry (MCP 2025-11-25). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Wraps a user's completion provider: keeps at most 100 values, sets `total` and `hasMore`
 * when it cuts, leaves out a `total` or `hasMore` of the provider's that is malformed or
 * contradicts its values, and turns a throw, or a value with no text (null, an object), into an
 * internal error (logged, never sent; a throw once the request's signal is aborted is not logged).
 * Numbers and booleans are sent as their text.
 */
export function compileCompleter(completer: Completer, where: string, logger: ToolLogger): CompleteArgument {
  return async (value, context) => {
    try {
      const out = await completer(value, context);
      const all = Array.isArray(out) ? (out as readonly string[]) : (out as { values: readonly string[] }).values;
      const kept = all.slice(0, MAX_COMPLETION_VALUES);
      // A number or a boolean reads as its text; anything else (null, an object) has no text a user could pick.
      const odd = kept.findIndex((v) => typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v)) && typeof v !== 'boolean');
      if (odd !== -1) {
        logger.error(`the completion provider of ${where} returned ${describeValue(kept[odd])} at position ${odd} of its values, not a string: return strings`);
        return { ok: false, error: 'internal', message: `Completing ${where} failed with an internal error.` };
      }
      const values = kept.map(String);
      const cut = all.length > values.length;
      // The provider's own total and hasMore count only when well-formed and true to the values it gave.
      const said = (Array.isArray(out) ? {} : out) as { total?: unknown; hasMore?: unknown };
      const total = typeof said.total === 'number' && Number.isSafeInteger(said.total) && said.total >= all.length ? said.total : cut ? all.length : undefined;
      const hasMore = cut || said.hasMore === true ? true : said.hasMore === false ? false : undefined;
      return { ok: true, value: { values, ...(total !== undefined && { total }), ...(hasMore !== undefined && { hasMore }) } };
    } catch (error) {
      // Stopped by its signal (the request ended): the answer is no longer awaited, and the throw is no fault.
      if (context.signal.aborted) return { ok: false, error: 'internal', message: `Completing ${where} stopped: its request ended.` };
      logger.error(`the completion provider of ${where} threw`, error);
      return { ok: false, error: 'internal', message: `Completing ${where} failed with an internal error.` };
    }
  };
}

/** A value's kind, for the log line of a provider that returned one that is no string. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A provider for a fixed list of values (enums, booleans): those starting with what was typed, ignoring case. */
export function valuesCompleter(values: readonly string[]): Completer {
  return (typed) => {
    const prefix = typed.toLowerCase();
    return values.filter((v) => v.toLowerCase().startsWith(prefix));
  };
}
