import { redisWarnings } from '../src/redisWarnings';

/** createRedisCluster's startup warnings (logged through logWrite) about a Redis on another host reached in clear or without credentials. */
describe('redisWarnings', () => {
  it('says nothing for a Redis on this host, however it is reached', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://localhost:6379', 'redis://[::1]:6379', 'redis://127.0.0.2', '/var/run/redis.sock']) expect(redisWarnings(url)).toEqual([]);
  });

  it('warns of a Redis on another host reached without TLS, and without credentials, with the password masked', () => {
    const [clear, open] = redisWarnings('redis://10.0.0.5:6379');
    expect(clear).toMatch(/^Redis at redis:\/\/10\.0\.0\.5:6379 is reached without TLS: .* Use rediss:\/\//);
    expect(open).toMatch(/^Redis at redis:\/\/10\.0\.0\.5:6379 is reached without credentials: .* ACL user/);
    const withPassword = redisWarnings('redis://app:s3cret-Zq9@redis.internal:6379');
    expect(withPassword).toHaveLength(1);
    expect(withPassword[0]).toMatch(/^Redis at redis:\/\/\*\*\*@redis\.internal:6379 is reached without TLS/);
    expect(withPassword[0]).not.toContain('s3cret');
  });

  it('is satisfied by TLS and credentials, given in the URL or as ioredis options', () => {
    expect(redisWarnings('rediss://app:pw@redis.internal:6380')).toEqual([]);
    expect(redisWarnings('redis://redis.internal:6380', { tls: {}, username: 'app', password: 'pw' })).toEqual([]);
    expect(redisWarnings('rediss://redis.internal:6380', { password: 'pw' })).toEqual([]);
    expect(redisWarnings('rediss://redis.internal:6380')).toEqual([expect.stringMatching(/without credentials/)]);
  });
});
