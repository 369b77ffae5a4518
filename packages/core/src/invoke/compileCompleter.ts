import type { CompleteArgument } from '../registry/CompiledRegistry';
import type { ToolLogger } from '../context/ToolContext';
import type { Completer } from '../metadata/Completer';

/** The most values one `completion/complete` answer may carry (MCP 2025-11-25). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Wraps a user's completion provider: keeps at most 100 values, sets `total` and `hasMore`
 * when it cuts, and turns a throw into an internal error (logged, never sent).
 */
export function compileCompleter(completer: Completer, where: string, logger: ToolLogger): CompleteArgument {
  return async (value, context) => {
    try {
      const out = await completer(value, context);
      const all = Array.isArray(out) ? (out as readonly string[]) : (out as { values: readonly string[] }).values;
      const values = all.slice(0, MAX_COMPLETION_VALUES).map(String);
      const cut = all.length > values.length;
      if (!Array.isArray(out)) {
        const o = out as { total?: number; hasMore?: boolean };
        return {
          ok: true,
          value: { values, ...(o.total !== undefined ? { total: o.total } : cut ? { total: all.length } : {}), ...(o.hasMore !== undefined || cut ? { hasMore: o.hasMore ?? cut } : {}) },
        };
      }
      return { ok: true, value: cut ? { values, total: all.length, hasMore: true } : { values } };
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
