const BRAND = Symbol.for('toolwright.error');

/**
 * Base class of every error Toolwright throws. Branded with a global symbol so
 * `ToolwrightError.is(e)` holds even when two copies of the package are loaded.
 */
export class ToolwrightError extends Error {
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    Object.setPrototypeOf(this, new.target.prototype);
  }

  static is(value: unknown): value is ToolwrightError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
