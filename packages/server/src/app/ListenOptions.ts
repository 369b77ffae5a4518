import type { HttpListenOptions } from '../http/HttpListenOptions';
import type { StdioListenOptions } from '../stdio/StdioListenOptions';

export type { HttpListenOptions } from '../http/HttpListenOptions';
export type { StdioListenOptions } from '../stdio/StdioListenOptions';

/** What `app.listen` takes: a stdio or an HTTP listener. */
export type ListenOptions = StdioListenOptions | HttpListenOptions;
