import { createConnection } from 'node:net';
import { pickFreePort } from '../../server/test/fixtures/onFreePort';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/**
 * The fixture's redis-server is its own: another test's redis-server may take the port it picked
 * before it binds (a clean-clone CI run saw such a race between example servers), and must not be
 * taken for it because it answers PING there.
 */
describe('startRedisServer when another redis-server holds its port', () => {
  const servers: RedisServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  /** A redis-server of another test, with `marker` set to `who` in it. */
  async function foreign(who: string, port?: number): Promise<RedisServer> {
    const server = await startRedisServer(port === undefined ? {} : { pick: () => Promise.resolve(port) });
    servers.push(server);
    await command(server.port, `SET marker ${who}`);
    return server;
  }

  it('starts on a port picked afresh when the picked one is taken, and answers as itself', async () => {
    const other = await foreign('other');
    let picks = 0;
    const ours = await startRedisServer({ pick: () => (picks++ === 0 ? Promise.resolve(other.port) : pickFreePort()) });
    servers.push(ours);
    expect(picks).toBe(2);
    expect(ours.port).not.toBe(other.port);
    expect(await command(ours.port, 'GET marker')).toBe('$-1\r\n');
    expect(await command(other.port, 'GET marker')).toBe('$5\r\nother\r\n');
  });

  it('start() on its old port, which another server took meanwhile, fails saying so instead of using that server', async () => {
    const ours = await startRedisServer();
    servers.push(ours);
    await ours.stop(true);
    await foreign('thief', ours.port);
    await expect(ours.start()).rejects.toThrow(new RegExp(`redis-server exited \\(1\\) before it said it listens on port ${ours.port}:[\\s\\S]*Address already in use`));
  });
});

/** Sends one inline command and resolves with the raw reply. */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => socket.write(`${line}\r\n`));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}
