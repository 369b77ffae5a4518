/** The command line or its input is wrong; the message says how to fix it. Exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The server could not be started or answered with a protocol error. Exits with 3. */
export class ServerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServerError';
  }
}

/** The CLI could not answer a request the server made (no reply to give); the call fails. Exits with 1. */
export class UnansweredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnansweredError';
  }
}
