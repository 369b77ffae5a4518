/**
 * @toolwright/server/compile-cache — import it first in a server's entry file (before
 * `reflect-metadata` and `@toolwright/server`) and Node compiles every module loaded after it
 * from its on-disk code cache on the next start (Node 22.8+). See the Deployment page of the docs.
 */
import { enableCompileCache } from './enableCompileCache';

export type { CompileCacheStatus } from './enableCompileCache';

/** What importing this entry point did. */
export const compileCache = enableCompileCache();
