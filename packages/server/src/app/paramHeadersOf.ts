import type { ParamHeader } from '@toolwright/core';
import { scanParamHeaders, type CompiledTool } from '@toolwright/core/internal';

const scanned = new WeakMap<CompiledTool, readonly ParamHeader[]>();

/** A tool's `x-mcp-header` declarations (checked when it was built), scanned once per tool. */
export function paramHeadersOf(tool: CompiledTool | undefined): readonly ParamHeader[] | undefined {
  if (!tool) return undefined;
  let headers = scanned.get(tool);
  if (!headers) {
    const scan = scanParamHeaders(tool.descriptor.inputSchema);
    headers = scan.ok ? scan.headers : [];
    scanned.set(tool, headers);
  }
  return headers;
}
