const VALID = /^[A-Za-z0-9_.-]{1,128}$/;

/** Whether a name is a valid MCP tool name (1-128 of A-Z, a-z, 0-9, `_`, `.`, `-`). */
export function isValidToolName(name: string): boolean {
  return VALID.test(name);
}

/** A tool name from an operationId, or from the method and path when there is none: invalid characters become `_`. */
export function toolNameFor(method: string, path: string, operationId: string | undefined): string {
  const raw = operationId ?? `${method}_${path}`;
  const cleaned = raw.replace(/[{}]/g, '').replace(/[^A-Za-z0-9_.-]+/g, '_');
  return (cleaned || method).slice(0, 128);
}
