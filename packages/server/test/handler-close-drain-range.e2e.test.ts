/**
 * `handler.close({ drainTimeoutMs })` of the node and fetch handlers refuses a drain time that is
 * not a whole number of milliseconds from 0 to 2^31 - 1 (a negative number or NaN would end the
 * wait at once, a longer timer fires after 1 ms): the close rejects with a `ConfigError` naming
 * the call and the range, before it begins, so the handler keeps serving and a corrected close closes it.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createHttpHandler } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const app = () => createApp({ name: 'close-range', version: '1', tools: [HttpTools], logger: silent });
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const initialize = (url: string, fetcher: (request: Request) => Promise<Response> = fetch): Promise<Response> =>
  fetcher(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) }));

const OUT_OF_RANGE: [string, unknown][] = [
  ['-1', -1],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['1.5', 1.5],
  ['2147483648', 2 ** 31],
  ['"100"', '100'],
];
const refusal = (call: string, got: string) =>
  new ConfigError(`Toolwright: ${call} must be a whole number of milliseconds from 0 to 2147483647, got ${got}. Give a number such as 10000, or leave it out for 10000 ms.`);

describe('createHttpHandler(...).close({ drainTimeoutMs }) out of range', () => {
  it.each(OUT_OF_RANGE)('%s: rejects naming the call; the handler keeps serving until a corrected close', async (got, ms) => {
    const handler = createHttpHandler(await app(), { requestLogLevel: 'silent' });
    const server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      await expect(handler.close({ drainTimeoutMs: ms as number })).rejects.toThrow(refusal('createHttpHandler(...).close({ drainTimeoutMs })', got));
      expect(handler.closing).toBe(false);
      expect((await initialize(url)).status).toBe(200);
      await handler.close({ drainTimeoutMs: 0 });
      expect((await initialize(url)).status).toBe(503);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('createFetchHandler(...).close({ drainTimeoutMs }) out of range', () => {
  it.each(OUT_OF_RANGE)('%s: rejects naming the call; the handler keeps serving until a corrected close', async (got, ms) => {
    const handler = createFetchHandler(await app(), { logError: () => undefined });
    const url = 'http://127.0.0.1/mcp';
    await expect(handler.close({ drainTimeoutMs: ms as number })).rejects.toThrow(refusal('createFetchHandler(...).close({ drainTimeoutMs })', got));
    expect(handler.closing).toBe(false);
    expect((await initialize(url, handler)).status).toBe(200);
    await handler.close({ drainTimeoutMs: 0 });
    expect((await initialize(url, handler)).status).toBe(503);
  });
});
