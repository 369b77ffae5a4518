import type { Io } from '../cli/Io';
import { ServerError } from '../cli/UsageError';
import { RpcError } from './RpcError';
import { StdioClient } from './StdioClient';
import type { ServerEntry } from './resolveEntry';

/**
 * Starts the server, runs `work` with a connected client, and always stops the server.
 * The server's own stderr is shown only with `verbose` (or when it fails to start, in the error).
 */
export async function withServer<T>(entry: ServerEntry, io: Io, options: { verbose?: boolean; timeoutMs?: number }, work: (client: StdioClient) => Promise<T>): Promise<T> {
  const sink = options.verbose ? io.stderr : { write: () => true } as unknown as NodeJS.WritableStream;
  let client: StdioClient;
  try {
    client = await StdioClient.start({ command: entry.command, args: entry.args, cwd: entry.projectDir, stderr: sink, timeoutMs: options.timeoutMs });
  } catch (error) {
    if (error instanceof RpcError) throw new ServerError(`The server refused to initialize: ${error.message}`);
    throw error;
  }
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
