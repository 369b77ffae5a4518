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

/** The terminal's input was closed (Ctrl-D or Ctrl-C) while a question waited for its answer. Exits with 2. */
export class InputClosedError extends UsageError {
  constructor(readonly question: string) {
    super(`No answer to '${question}': the input was closed (Ctrl-D or Ctrl-C). Nothing was done; pass the answers as arguments to run without questions.`);
    this.name = 'InputClosedError';
  }
}
