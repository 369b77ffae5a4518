import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import { UsageError } from '../cli/UsageError';
import { jsonSyntaxProblem } from './jsonSyntaxProblem';

/** The UTF-8 byte-order mark, as the first character of text read as UTF-8. */
export const BOM = '\uFEFF';

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/**
 * The client's config file with one server entry added or replaced, every other key kept:
 * `entry` is what `clientConfig` returns, `{ <section>: { <name>: {...} } }`. The file may be
 * JSON with comments and trailing commas (VS Code's `.vscode/mcp.json` allows both): it is
 * edited in place, so its comments, order and layout stay as they were. A UTF-8 byte-order mark
 * at its start (Windows editors write one) is read through and not written back: JSON texts
 * must not carry one (RFC 8259, 8.1), and readers built on `JSON.parse` refuse it.
 */
export function mergeClientConfig(existing: string | undefined, entry: Record<string, unknown>, file: string): { text: string; replaced: boolean } {
  const source = existing?.startsWith(BOM) ? existing.slice(BOM.length) : existing;
  if (source === undefined || source.trim() === '') return { text: `${JSON.stringify(entry, null, 2)}\n`, replaced: false };
  const errors: ParseError[] = [];
  const config = parse(source, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) {
    throw new UsageError(
      `${file} is not valid JSON (comments and trailing commas are allowed): ${jsonSyntaxProblem(source, errors[0])}. Fix the file, or add the snippet of 'toolwright config' by hand.`,
    );
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new UsageError(`${file} does not hold a JSON object. Fix it, or add the snippet of 'toolwright config' by hand.`);
  let text = source;
  let replaced = false;
  for (const [section, servers] of Object.entries(entry)) {
    const current = (config as Record<string, unknown>)[section];
    if (Array.isArray(servers)) {
      text = mergeInputs(text, section, current, servers as { id: string }[], file);
      continue;
    }
    if (current !== undefined && (typeof current !== 'object' || current === null || Array.isArray(current)))
      throw new UsageError(`${file}: "${section}" is not an object. Fix it, or add the snippet by hand.`);
    for (const [name, server] of Object.entries(servers as Record<string, unknown>)) {
      replaced ||= current !== undefined && Object.hasOwn(current, name);
      text = applyEdits(text, modify(text, [section, name], server, FORMAT));
    }
  }
  return { text: text.endsWith('\n') ? text : `${text}\n`, replaced };
}

/** VS Code's `inputs`: the entry's inputs whose id the file does not have yet are appended; the file's own stay as they are. */
function mergeInputs(text: string, section: string, current: unknown, inputs: readonly { id: string }[], file: string): string {
  if (current === undefined) return applyEdits(text, modify(text, [section], inputs, FORMAT));
  if (!Array.isArray(current)) throw new UsageError(`${file}: "${section}" is not an array. Fix it, or add the snippet by hand.`);
  const ids = new Set(current.map((input: unknown) => (input as { id?: unknown } | null)?.id));
  for (const input of inputs) if (!ids.has(input.id)) text = applyEdits(text, modify(text, [section, -1], input, { ...FORMAT, isArrayInsertion: true }));
  return text;
}
