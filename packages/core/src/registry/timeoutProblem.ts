/**
 * What is wrong with a timeout in milliseconds (`-1, not a positive number of milliseconds`), or
 * undefined when it is one. A timer given anything but a positive finite number fires at once,
 * failing every call it guards.
 */
export function timeoutProblem(value: unknown): string | undefined {
  if (typeof value === 'number' && value > 0 && Number.isFinite(value)) return undefined;
  return `${typeof value === 'string' ? JSON.stringify(value) : String(value)}, not a positive number of milliseconds`;
}
