import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright call` on a server that declares no tools, resources or prompts says what it serves
 * instead, from the server's lists. Each list may fail on its own: a server that declares
 * `resources` but has no `resources/templates/list`, a list that gets no answer in time, a list
 * answered with an error. The sentence that it serves none of the feature asked for is given all
 * the same, and no failure is blamed on the request that was never sent.
 *
 * The servers are a Streamable HTTP endpoint on 127.0.0.1 (JSON answers) written by hand, one
 * behaviour per path, so that each list can be made to fail; the client is the CLI's own (the SDK's).
 */
type Answer = { result: object } | { error: { code: number; message: string } } | 'never';

interface Behaviour {
  readonly capabilities: object;
  readonly answers: ReadonlyMap<string, Answer>;
}

const notFound = (method: string): Answer => ({ error: { code: -32601, message: `Method not found: ${method}` } });

const BEHAVIOURS = new Map<string, Behaviour>([
  [
    '/no-templates',
    {
      capabilities: { tools: {}, resources: {} },
      answers: new Map<string, Answer>([
        ['tools/list', { result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } }],
        ['resources/list', { result: { resources: [{ uri: 'file:///a', name: 'a' }] } }],
        ['resources/templates/list', notFound('resources/templates/list')],
      ]),
    },
  ],
  [
    '/tools-unanswered',
    {
      capabilities: { tools: {}, prompts: {} },
      answers: new Map<string, Answer>([
        ['tools/list', 'never'],
        ['prompts/list', { result: { prompts: [{ name: 'summarize' }] } }],
      ]),
    },
  ],
  [
    '/resources-fail',
    {
      capabilities: { resources: {}, prompts: {} },
      answers: new Map<string, Answer>([
        ['resources/list', { error: { code: -32603, message: 'the store is down\n    at Store.list (store.js:1:1)' } }],
        ['resources/templates/list', { result: { resourceTemplates: [] } }],
        ['prompts/list', { error: { code: -32603, message: 'x'.repeat(500) } }],
      ]),
    },
  ],
]);

function serve(req: IncomingMessage, res: ServerResponse): void {
  const behaviour = BEHAVIOURS.get(req.url ?? '');
  if (req.method !== 'POST' || behaviour === undefined) return void res.writeHead(404).end();
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const message = JSON.parse(body) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) return void res.writeHead(202).end();
    const answer: Answer =
      message.method === 'initialize'
        ? { result: { protocolVersion: message.params?.protocolVersion, capabilities: behaviour.capabilities, serverInfo: { name: 'partial', version: '1.0.0' } } }
        : (behaviour.answers.get(message.method) ?? notFound(message.method));
    if (answer === 'never') return;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }));
  });
}

describe('call on a server that serves none of the feature asked for, when a list of what it serves fails', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const call = async (path: string, ...argv: string[]) => {
    const io = memoryIo(tmpdir());
    const code = await runCli(['call', `${base}${path}`, ...argv, '--protocol', '2025-11-25'], io);
    return { code, stdout: io.output(), stderr: io.errors() };
  };
  const unserved = (path: string, message: string) => ({
    code: 3,
    stdout: '',
    stderr: `error: ${message} See everything it serves: toolwright inspect '${base}${path}'\n`,
  });

  // The failed resources/templates/list was the error: "prompts/get 'x' failed: Method not found: resources/templates/list".
  it('names the resources it listed, and says its resource templates could not be listed', async () => {
    expect(await call('/no-templates', '--prompt', 'x')).toEqual(
      unserved(
        '/no-templates',
        "prompts/get 'x' was not sent. The server partial 1.0.0 serves no prompts (its capabilities declare none). It serves 1 tool: echo; 1 resource: file:///a (its resource templates could not be listed: Method not found: resources/templates/list, JSON-RPC error -32601).",
      ),
    );
  });

  it('says which list got no answer within --timeout, and names the others', async () => {
    expect(await call('/tools-unanswered', '--resource', 'file:///a', '--timeout', '500')).toEqual(
      unserved(
        '/tools-unanswered',
        "resources/read 'file:///a' was not sent. The server partial 1.0.0 serves no resources (its capabilities declare none). It serves tools (could not be listed: no answer within 500 ms); 1 prompt: summarize.",
      ),
    );
  });

  it("quotes a list's error in one short line: its first line, at most 120 characters", async () => {
    expect(await call('/resources-fail', 'echo')).toEqual(
      unserved(
        '/resources-fail',
        `tools/call 'echo' was not sent. The server partial 1.0.0 serves no tools (its capabilities declare none). It serves resources (could not be listed: the store is down, JSON-RPC error -32603); prompts (could not be listed: ${'x'.repeat(120)}…, JSON-RPC error -32603).`,
      ),
    );
  });
});
