import { join } from 'node:path';
import { negotiatedEra, readStdioLog, type Negotiated } from './negotiatedEra';
import { RECORD_STDIO, SERVERS, scratchDir, serveHttp, type HttpServer } from './examples';
import { startRecordingProxy, type RecordingProxy } from './recordingProxy';
import { nodeFor, runDriver, type Outcome, type Plan } from './runDriver';

/** A finished run: what the client got back, and the era the server saw it speak. */
export interface Run {
  readonly outcomes: Outcome[];
  readonly negotiated: Negotiated;
}

export interface Harness {
  /** A scratch folder for this file's logs (and a client's HOME where it writes one); removed by close(). */
  readonly dir: string;
  /** Serves `server` (a built example) over HTTP behind a recording proxy and runs the plan against the proxy. */
  overHttp(server: string, plan: Omit<Plan, 'target'>): Promise<Run>;
  /** Runs the plan against `server` over stdio: the client starts it behind drivers/recordStdio.js. */
  overStdio(server: string, plan: Omit<Plan, 'target'>): Promise<Run>;
  /** Starts `server` over HTTP behind a recording proxy, for clients the test drives itself; stopped by close(). */
  proxied(server: string): Promise<RecordingProxy>;
  /** The stdio command that serves `server` behind the recorder writing to `log`, as a client should spawn it. */
  recordedStdio(server: string, log: string, recorderNode?: string): { command: string; args: string[] };
  close(): Promise<void>;
}

/** One per test file: runs drivers/<client>.mjs against the built examples and reads the era each run negotiated. */
export function createHarness(client: string): Harness {
  const scratch = scratchDir(client);
  const servers: HttpServer[] = [];
  const proxies: RecordingProxy[] = [];
  let runs = 0;
  const harness: Harness = {
    dir: scratch.dir,
    async proxied(server) {
      const http = await serveHttp(server);
      servers.push(http);
      const proxy = await startRecordingProxy(http.url);
      proxies.push(proxy);
      return proxy;
    },
    async overHttp(server, plan) {
      const proxy = await harness.proxied(server);
      const outcomes = await runDriver(client, { target: { http: { url: proxy.url } }, ...plan }, { HOME: scratch.dir });
      return { outcomes, negotiated: negotiatedEra(proxy.records) };
    },
    recordedStdio(server, log, recorderNode = nodeFor(client)) {
      return { command: recorderNode, args: [RECORD_STDIO, log, process.execPath, server] };
    },
    async overStdio(server, plan) {
      const log = join(scratch.dir, `stdio-${++runs}.jsonl`);
      const outcomes = await runDriver(client, { target: { stdio: harness.recordedStdio(server, log) }, ...plan }, { HOME: scratch.dir });
      return { outcomes, negotiated: negotiatedEra(readStdioLog(log)) };
    },
    async close() {
      await Promise.all(proxies.map((p) => p.close()));
      await Promise.all(servers.map((s) => s.stop()));
      scratch.remove();
    },
  };
  return harness;
}

/** The value a step returned, or a failure naming the error the client library threw. */
export function valueOf<T>(outcome: Outcome): T {
  if ('error' in outcome) throw new Error(`${outcome.op} failed in the client: ${outcome.error}`);
  return outcome.value as T;
}

export { SERVERS };
