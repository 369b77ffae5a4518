import { ConfigError } from '@toolwright/core';

/** What `listenFailure` returns: a `ConfigError` that keeps node's error as `cause`, and its `code` (`'EADDRINUSE'`) as node's error had it. */
export type ListenFailure = ConfigError & { readonly code?: string };

const ADDRESS_HINT = "host: '127.0.0.1' for this machine only, '0.0.0.0' for every interface, or leave host out for 127.0.0.1";

/**
 * The error `app.listen({ transport: 'http' })` throws when node cannot listen on `host:port`
 * (the port in use, a privileged port, a host that is not this machine's): a `ConfigError` that
 * says what and how to fix it, with node's error as its `cause` and node's `code` kept on it, so
 * code that retries on `error.code === 'EADDRINUSE'` goes on working.
 */
export function listenFailure(error: unknown, port: number, host: string): ListenFailure {
  const given = error as { code?: unknown; message?: unknown } | null | undefined;
  const code = typeof given?.code === 'string' ? given.code : undefined;
  const failure: ListenFailure = new ConfigError(messageOf(code, typeof given?.message === 'string' ? given.message : String(error), port, host), { cause: error });
  return code === undefined ? failure : Object.assign(failure, { code });
}

function messageOf(code: string | undefined, nodeMessage: string, port: number, host: string): string {
  switch (code) {
    case 'EADDRINUSE':
      return `Toolwright: port ${port} on ${host} is in use (another server, or this app's own listener started twice). Stop the other one, pick another port, or port: 0 for a free one.`;
    case 'EACCES':
      return port > 0 && port < 1024
        ? `Toolwright: port ${port} on ${host} needs privileges this process does not have (EACCES): ports below 1024 are reserved to the system. Pick a port of 1024 or more (port: 3000), or serve on such a port behind a reverse proxy that listens on ${port}.`
        : `Toolwright: this process may not listen on port ${port} on ${host} (EACCES: ${nodeMessage}). Pick another port, or port: 0 for a free one.`;
    case 'EADDRNOTAVAIL':
      return `Toolwright: cannot listen on ${host}: it is not an address of this machine (EADDRNOTAVAIL). Give one of its addresses, ${ADDRESS_HINT}.`;
    case 'ENOTFOUND':
      return `Toolwright: cannot listen on host '${host}': the name resolves to no address (ENOTFOUND). Fix the name, or give an address: ${ADDRESS_HINT}.`;
    default:
      return `Toolwright: cannot listen on port ${port} on ${host} (${code ?? 'no error code'}: ${nodeMessage}). Check the host and port options; node's error is this error's cause.`;
  }
}
