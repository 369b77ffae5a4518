import type { AuthInfo } from '@toolwright/core';

/** Says who the caller of a connection without tokens (stdio) is; called once when serving starts. */
export type AuthInfoProvider = () => AuthInfo | undefined | Promise<AuthInfo | undefined>;
