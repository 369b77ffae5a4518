import { createServer, type Server } from 'node:http';
import { onFreePort, pickFreePort } from './fixtures/onFreePort';

/**
 * The tests' helper for servers that must know their port before they listen (an OAuth issuer):
 * another test may take the picked port first, and the listen then fails with EADDRINUSE.
 */
describe('onFreePort (test fixture)', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  async function listen(port: number): Promise<Server> {
    const server = createServer((_req, res) => res.end('ours'));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    servers.push(server);
    return server;
  }

  it('listens on a port picked afresh when another server took the one picked first', async () => {
    const other = await listen(0);
    const taken = (other.address() as { port: number }).port;
    const picked: number[] = [];
    const pick = async () => {
      const port = picked.length === 0 ? taken : await pickFreePort();
      picked.push(port);
      return port;
    };
    const ours = await onFreePort(listen, { pick });
    const port = (ours.address() as { port: number }).port;
    expect(picked).toEqual([taken, port]);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ours');
  });

  it('gives up after its tries, naming the ports, and does not retry other failures', async () => {
    const other = await listen(0);
    const taken = (other.address() as { port: number }).port;
    await expect(onFreePort(listen, { tries: 2, pick: () => Promise.resolve(taken) })).rejects.toThrow(`onFreePort: ports ${taken}, ${taken} were each taken`);
    let calls = 0;
    const refused = onFreePort(() => {
      calls++;
      return Promise.reject(Object.assign(new Error('no'), { code: 'EACCES' }));
    });
    await expect(refused).rejects.toThrow('no');
    expect(calls).toBe(1);
  });
});
