import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface LoadReport {
  readonly clients: number;
  readonly calls: number;
  readonly failed: number;
  /** Calls whose session notes held anything but this client's own notes, in order. */
  readonly leaks: number;
  readonly ms: number;
  readonly callsPerSecond: number;
  readonly firstError?: string;
}

/**
 * `clients` sessions, each making `calls` calls of `note` in a row; every answer must hold
 * exactly this session's notes so far (a note of another session would be a leak).
 */
export async function runLoad(url: string, clients: number, calls: number): Promise<LoadReport> {
  let failed = 0;
  let leaks = 0;
  let firstError: string | undefined;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const client = new Client({ name: `load-${c}`, version: '1' });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      } catch (error) {
        failed += calls;
        firstError ??= (error as Error).message;
        return;
      }
      for (let i = 0; i < calls; i++) {
        try {
          const result = await client.callTool({ name: 'note', arguments: { text: `${c}:${i}` } });
          const text = (result.content as { text?: string }[])[0]?.text ?? '{}';
          const notes = result.isError ? [] : ((JSON.parse(text) as { notes?: string[] }).notes ?? []);
          if (result.isError) {
            failed++;
            firstError ??= JSON.stringify(result.content);
          } else if (notes.length !== i + 1 || notes.some((n, j) => n !== `${c}:${j}`)) leaks++;
        } catch (error) {
          failed++;
          firstError ??= (error as Error).message;
        }
      }
      await client.close();
    }),
  );
  const ms = performance.now() - started;
  return { clients, calls: clients * calls, failed, leaks, ms: Math.round(ms), callsPerSecond: Math.round((clients * calls * 1000) / ms), ...(firstError && { firstError }) };
}

if (require.main === module) {
  const [url = 'http://127.0.0.1:3000/mcp', clients = '50', calls = '200'] = process.argv.slice(2);
  void runLoad(url, Number(clients), Number(calls)).then((report) => {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    process.exit(report.failed === 0 && report.leaks === 0 ? 0 : 1);
  });
}
