import { createServer } from 'node:net';

/**
 * Whether another socket listens on `port` at `host`: a probe listens there and closes at once.
 * Any other failure to listen (a port below 1024 without the right) is not "in use": the
 * server that listens there next reports it itself.
 */
export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}
