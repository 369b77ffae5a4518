import type { CompleteArgument } from '../registry/CompiledRegistry';
import type { ToolLogger } from '../context/ToolContext';
import type { Completer } from '../metadata/Completer';

/** The most values one `completion/complete` answer may carry (MCP 2025-11-25). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Wraps a user's completion provider: keeps at most 100 values, sets `total` and `hasMore`
 * when it cuts, leaves out a `total` or `hasMore` of the provider's that is malformed or
 * contradicts its values, and turns a throw into an internal error (logged, never sent).
 */
export function compileCompleter(completer: Completer, where: string, logger: ToolLogger): CompleteArgument {
  return async (value, context) => {
    try {
      const out = await completer(value, context);
      const all = Array.isArray(out) ? (out as readonly string[]) : (out as { values: readonly string[] }).values;
      const values = all.slice(0, MAX_COMPLETION_VALUES).map(String);
      const cut = all.length > values.length;
      // The provider's own total and hasMore count only when well-formed and true to the values it gave.
      const said = (Array.isArray(out) ? {} : out) as { total?: unknown; hasMore?: unknown };
      const total = typeof said.total === 'number' && Number.isSafeInteger(said.total) && said.total >= all.length ? said.total : cut ? all.length : undefined;
      const hasMore = cut || said.hasMore === true ? true : said.hasMore === false ? false : undefined;
      return { ok: true, value: { values, ...(total !== undefined && { total }), ...(hasMore !== undefined && { hasMore }) } };
    } catch (error) {
      logger.error(`the completion provider of ${where} threw`, error);
      return { ok: false, error: 'internal', message: `Completing ${where} failed with an internal error.` };
    }
  };
}

/** A provider for a fixed list of values (enums, booleans): those starting with what was typed, ignoring case. */
export function valuesCompleter(values: readonly string[]): Completer {
  return (typed) => {
    const prefix = typed.toLowerCase();
    return values.filter((v) => v.toLowerCase().startsWith(prefix));
  };
}
