/**
 * `app.listen({ transport: 'http' })` on a port or host node refuses: a ConfigError that says what
 * and how to fix it, with node's error as `cause` and its `code` kept, and nothing left open or held
 * behind it (the next listen works, the app's start and shutdown hooks run as for any listener).
 */
import 'reflect-metadata';
import { createServer, type Server } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ConfigError, Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { listenFailure } from '../src/http/listenFailure';

class EchoTools {
  @Tool({ description: 'Echo the text.' })
  echo(@Param('text') text: string): string {
    return text;
  }
}

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };

/** A server of node's own holding a port of 127.0.0.1. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** What node says listening on `host` (a code), or undefined when it can. */
async function listenCodeOn(host: string): Promise<string | undefined> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    probe.listen(0, host, () => probe.close(() => resolve(undefined)));
  });
}

const listeningSockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/** The count of listening sockets once node has finished closing the refused one (its handle closes a turn of the loop after the error). */
async function settledSockets(expected: number): Promise<number> {
  for (let turns = 0; turns < 50 && listeningSockets() !== expected; turns++) await new Promise((resolve) => setTimeout(resolve, 10));
  return listeningSockets();
}

async function echoOver(url: string): Promise<string> {
  const client = new Client({ name: 'listen-failure', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return await toolText(client.callTool({ name: 'echo', arguments: { text: 'served' } }));
  } finally {
    await client.close();
  }
}

describe('app.listen over HTTP on a port or host node refuses', () => {
  let events: string[];
  let app: App;
  beforeEach(async () => {
    events = [];
    app = await createApp({ name: 'listen-failure', version: '1.0.0', tools: [EchoTools], onStart: () => void events.push('start'), onShutdown: () => void events.push('stop') });
  });

  it('a port in use: a ConfigError saying how to fix it, with EADDRINUSE kept; the app lets go, and a listen on port 0 serves a real client', async () => {
    const held = await holdPort();
    try {
      const before = listeningSockets();
      const refused: unknown = await app.listen({ transport: 'http', port: held.port, ...quiet }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect(ConfigError.is(refused)).toBe(true);
      expect((refused as Error).message).toBe(
        `Toolwright: port ${held.port} on 127.0.0.1 is in use (another server, or this app's own listener started twice). Stop the other one, pick another port, or port: 0 for a free one.`,
      );
      expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
      // Code that retried on node's error (`error.code === 'EADDRINUSE'`) still can.
      expect((refused as { code?: string }).code).toBe('EADDRINUSE');
      // Nothing listens, and the app, started for the listener, stopped with it as it does after any listener's last close.
      expect(await settledSockets(before)).toBe(before);
      expect(events).toEqual(['start', 'stop']);
    } finally {
      await new Promise((resolve) => held.server.close(resolve));
    }
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet });
    try {
      expect(await echoOver(listener.url)).toBe('served');
      expect(events).toEqual(['start', 'stop', 'start']);
    } finally {
      await listener.close();
    }
    expect(events).toEqual(['start', 'stop', 'start', 'stop']);
  });

  it("the app's own listener started twice on one port: the second is refused, the first goes on serving and holds the app", async () => {
    const first = await app.listen({ transport: 'http', port: 0, ...quiet });
    try {
      await expect(app.listen({ transport: 'http', port: first.port, ...quiet })).rejects.toThrow(
        `Toolwright: port ${first.port} on 127.0.0.1 is in use (another server, or this app's own listener started twice).`,
      );
      expect(events).toEqual(['start']);
      expect(await echoOver(first.url)).toBe('served');
    } finally {
      await first.close();
    }
    expect(events).toEqual(['start', 'stop']);
  });

  it('a host that is not an address of this machine (TEST-NET 192.0.2.1): says so, with the code', async () => {
    const code = await listenCodeOn('192.0.2.1');
    if (code === undefined) return; // this machine has that address: nothing to refuse
    const refused = (await app.listen({ transport: 'http', host: '192.0.2.1', port: 0, ...quiet }).catch((error: unknown) => error)) as ConfigError & { code?: string };
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused.code).toBe(code);
    expect((refused.cause as NodeJS.ErrnoException).code).toBe(code);
    if (code === 'EADDRNOTAVAIL')
      expect(refused.message).toBe(
        "Toolwright: cannot listen on 192.0.2.1: it is not an address of this machine (EADDRNOTAVAIL). Give one of its addresses, host: '127.0.0.1' for this machine only, '0.0.0.0' for every interface, or leave host out for 127.0.0.1.",
      );
    expect(events).toEqual(['start', 'stop']);
  });

  it('createTestClient over HTTP is unaffected', async () => {
    const client = await createTestClient(app, { transport: 'http' });
    try {
      expect(await toolText(client.callTool({ name: 'echo', arguments: { text: 'kit' } }))).toBe('kit');
    } finally {
      await client.close();
    }
  });
});

describe('listenFailure: what each refusal of node says', () => {
  const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code, syscall: 'listen' });

  it('a privileged port (EACCES, as a user without root gets on port 80)', () => {
    const cause = nodeError('EACCES', 'listen EACCES: permission denied 127.0.0.1:80');
    const failure = listenFailure(cause, 80, '127.0.0.1');
    expect(failure).toBeInstanceOf(ConfigError);
    expect(failure.cause).toBe(cause);
    expect(failure.code).toBe('EACCES');
    expect(failure.message).toBe(
      'Toolwright: port 80 on 127.0.0.1 needs privileges this process does not have (EACCES): ports below 1024 are reserved to the system. Pick a port of 1024 or more (port: 3000), or serve on such a port behind a reverse proxy that listens on 80.',
    );
  });

  it('EACCES on a port of 1024 or more (a port the system reserves otherwise)', () => {
    expect(listenFailure(nodeError('EACCES', 'listen EACCES: permission denied 0.0.0.0:8080'), 8080, '0.0.0.0').message).toBe(
      'Toolwright: this process may not listen on port 8080 on 0.0.0.0 (EACCES: listen EACCES: permission denied 0.0.0.0:8080). Pick another port, or port: 0 for a free one.',
    );
  });

  it('a host name that resolves to nothing (ENOTFOUND)', () => {
    expect(listenFailure(nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND exmaple.invalid'), 3000, 'exmaple.invalid').message).toBe(
      "Toolwright: cannot listen on host 'exmaple.invalid': the name resolves to no address (ENOTFOUND). Fix the name, or give an address: host: '127.0.0.1' for this machine only, '0.0.0.0' for every interface, or leave host out for 127.0.0.1.",
    );
  });

  it('any other code: a generic message naming it and node message', () => {
    const failure = listenFailure(nodeError('EMFILE', 'listen EMFILE: too many open files'), 3000, '::1');
    expect(failure.code).toBe('EMFILE');
    expect(failure.message).toBe("Toolwright: cannot listen on port 3000 on ::1 (EMFILE: listen EMFILE: too many open files). Check the host and port options; node's error is this error's cause.");
    const odd = listenFailure('gone', 3000, '127.0.0.1');
    expect(odd.code).toBeUndefined();
    expect(odd.message).toBe("Toolwright: cannot listen on port 3000 on 127.0.0.1 (no error code: gone). Check the host and port options; node's error is this error's cause.");
  });
});
