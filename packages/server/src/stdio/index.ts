/** @toolwright/server/stdio — serve an app over stdin/stdout. */
import '../sdk/deferUnusedModules'; // first: before anything loads the SDK
export { serveStdio } from './serveStdio';
export { StdioTransport } from './StdioTransport';
export { protectStdout } from './protectStdout';
