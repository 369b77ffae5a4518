import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedMessage } from './negotiatedEra';

export interface RecordingProxy {
  /** The proxy's MCP endpoint: the target's path on the proxy's port. */
  readonly url: string;
  /** Every JSON-RPC message posted through the proxy, with its MCP-Protocol-Version header. */
  readonly records: RecordedMessage[];
  close(): Promise<void>;
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of `target`: requests and responses (SSE streams
 * too) go through byte for byte; the posted JSON-RPC bodies and their MCP-Protocol-Version header
 * are recorded, so a test sees what era a client spoke from the server's side.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const records: RecordedMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && body.length > 0) record(records, body, req.headers);
      const headers = { ...req.headers, host: upstream.host };
      const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`recording proxy: ${error.message}`);
      });
      res.on('close', () => forward.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    records,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function record(records: RecordedMessage[], body: Buffer, headers: IncomingHttpHeaders): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return; // not JSON: the server answers it; there is no era to read
  }
  const header = headers['mcp-protocol-version'];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    records.push({ from: 'client', message: message as RecordedMessage['message'], ...(typeof header === 'string' && { protocolHeader: header }) });
  }
}
