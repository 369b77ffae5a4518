/** @toolwright/server/stdio — serve an app over stdin/stdout. */
export { serveStdio } from './serveStdio';
export { StdioTransport } from './StdioTransport';
export { protectStdout } from './protectStdout';
export type { StdoutWrite } from './protectStdout';
