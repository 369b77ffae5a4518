import { readFileSync } from 'node:fs';

/** One JSON-RPC message seen between a client and the server, from the server's side. */
export interface RecordedMessage {
  readonly from: 'client' | 'server';
  readonly message: { id?: unknown; method?: string; params?: { protocolVersion?: string; _meta?: Record<string, unknown> }; result?: { protocolVersion?: string } };
  /** HTTP only: the request's MCP-Protocol-Version header. */
  readonly protocolHeader?: string;
}

/** What a client negotiated: the era, the revision it then spoke, and the methods it sent in order. */
export interface Negotiated {
  readonly era: 'legacy' | 'modern';
  readonly version: string;
  /** The 2025 handshake only: the version the client asked for in `initialize`. */
  readonly requested?: string;
  readonly methods: string[];
}

const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** Reads a log written by drivers/recordStdio.js. */
export function readStdioLog(file: string): RecordedMessage[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RecordedMessage);
}

/** The handshake and probe methods; every other request is the client's work, and says the era it runs in. */
const HANDSHAKE = new Set(['initialize', 'notifications/initialized', 'server/discover']);

/**
 * The era a client negotiated, from what the server saw of its work (every request but the
 * handshake and the probe). 2026-07-28 requests carry the revision in
 * `params._meta["io.modelcontextprotocol/protocolVersion"]`; a 2025 session's requests carry none,
 * and the revision agreed is in the `initialize` answer (stdio) or the MCP-Protocol-Version header
 * of the requests after it (HTTP). A client that probed with `server/discover` and then
 * initialized is legacy. Throws when the work mixes the two.
 */
export function negotiatedEra(records: readonly RecordedMessage[]): Negotiated {
  const requests = records.filter((r) => r.from === 'client' && typeof r.message.method === 'string');
  const methods = requests.map((r) => r.message.method!);
  const work = requests.filter((r) => !HANDSHAKE.has(r.message.method!));
  if (work.length === 0) throw new Error(`no request besides the handshake was recorded (methods: ${methods.join(', ')})`);
  const claims = work.map((r) => r.message.params?._meta?.[ENVELOPE_VERSION]);
  if (claims.every((c) => typeof c === 'string')) {
    const versions = [...new Set(claims as string[])];
    if (versions.length !== 1) throw new Error(`the client's requests claim several revisions: ${versions.join(', ')}`);
    const headers = work.map((r) => r.protocolHeader).filter((h) => h !== undefined && h !== versions[0]);
    if (headers.length > 0) throw new Error(`MCP-Protocol-Version ${headers[0]} contradicts the requests' ${versions[0]}`);
    return { era: 'modern', version: versions[0], methods };
  }
  if (claims.some((c) => c !== undefined)) throw new Error(`the client mixed 2026-07-28 requests and 2025 session requests (methods: ${methods.join(', ')})`);
  const initializes = requests.filter((r) => r.message.method === 'initialize');
  const initialize = initializes[initializes.length - 1];
  if (!initialize) throw new Error(`requests without a protocol version claim, but no initialize (methods: ${methods.join(', ')})`);
  const answer = records.find((r) => r.from === 'server' && r.message.id === initialize.message.id && r.message.result && records.indexOf(r) > records.indexOf(initialize));
  const headers = [...new Set(work.map((r) => r.protocolHeader).filter((h): h is string => h !== undefined))];
  if (headers.length > 1) throw new Error(`the client's MCP-Protocol-Version changed within the session: ${headers.join(', ')}`);
  const version = answer?.message.result?.protocolVersion ?? headers[0];
  if (!version) throw new Error(`initialize was sent, but neither its answer nor a later MCP-Protocol-Version header was recorded (methods: ${methods.join(', ')})`);
  if (headers.length === 1 && headers[0] !== version) throw new Error(`initialize agreed on ${version}, the requests then said ${headers[0]}`);
  return { era: 'legacy', version, requested: initialize.message.params?.protocolVersion, methods };
}
