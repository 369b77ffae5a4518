/**
 * @toolwright/server/compile-cache — import it first in a server's entry file (before
 * `reflect-metadata` and `@toolwright/server`) and every module loaded after it is compiled
 * from an on-disk code cache on the next start. See the Startup page of the docs.
 */
import { enableCompileCache } from './enableCompileCache';

export type { CompileCacheStatus } from './enableCompileCache';
export type { CompileCacheCounts } from './cjsCompileCache';

/** What importing this entry point did. */
export const compileCache = enableCompileCache();
