import 'reflect-metadata';
import { Param, Prompt, Resource, Tool, UseGuards } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * A guard step that fails for another reason than a refusal (a guard throws, and the logger throws
 * while it records that) on resources/read and prompts/get: the generic -32603, logged once the
 * logger works again, no detail of the failure on the wire, and the server keeps serving.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const broken = () => {
  throw new Error('guard broke: db at 10.0.0.7:5432 password=hunter2');
};
class Broken {
  @UseGuards(broken)
  @Resource('file:///secret.txt')
  secret() {
    return 'secret';
  }

  @UseGuards(broken)
  @Resource('notes://{id}')
  note(@Param('id') id: string) {
    return `note ${id}`;
  }

  @UseGuards(broken)
  @Prompt({ description: 'A guarded prompt.' })
  greet() {
    return 'hello';
  }

  @Tool({ description: 'An unguarded tool.' })
  ping() {
    return 'pong';
  }
}
const failingOnce = () => {
  const lines: string[] = [];
  let failing = true;
  const error = (...args: unknown[]) => {
    if (failing) {
      failing = false;
      throw new Error('log sink down at 10.0.0.9');
    }
    lines.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
  };
  return { lines, logger: { ...silent, error } };
};
const outcome = (p: Promise<unknown>) =>
  p.then(
    (r) => `result: ${JSON.stringify(r)}`,
    (e: Error & { code?: number; data?: unknown }) => `error ${e.code}: ${e.message} ${JSON.stringify(e.data ?? null)}`,
  );

describe.each(['legacy', 'modern'] as const)('%s: guard throws + logger throws', (era) => {
  it.each([
    ['resources/read static', (c: Awaited<ReturnType<typeof createTestClient>>) => c.readResource({ uri: 'file:///secret.txt' }), "Reading resource 'file:///secret.txt'"],
    ['resources/read template', (c: Awaited<ReturnType<typeof createTestClient>>) => c.readResource({ uri: 'notes://7' }), "Reading resource 'notes://7'"],
    ['prompts/get', (c: Awaited<ReturnType<typeof createTestClient>>) => c.getPrompt({ name: 'greet', arguments: {} }), "Prompt 'greet'"],
  ])('%s: generic -32603, logged, no secret, server alive', async (_label, call, head) => {
    const { lines, logger } = failingOnce();
    const app = await createApp({ name: 'broken', version: '1', tools: [Broken], logger });
    const client = await createTestClient(app, { era });
    const throwing = await createApp({
      name: 'throwing',
      version: '1',
      tools: [Broken],
      logger: {
        ...silent,
        error: () => {
          throw new Error('log sink down');
        },
      },
    });
    const other = await createTestClient(throwing, { era });
    try {
      const answer = await outcome(call(client));
      expect(answer).toMatch(/^error -32603: /);
      expect(answer).toContain(`${head} failed with an internal error. The server log has the details.`);
      expect(answer).not.toMatch(/hunter2|10\.0\.0|log sink|stack|at /);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/failed to decide \(not a refusal\)/);
      const again = await outcome(call(other));
      expect(again).toMatch(/^error -32603: /);
      expect(again).not.toMatch(/hunter2|10\.0\.0|log sink/);
      expect(await outcome(other.callTool({ name: 'ping', arguments: {} }))).toContain('pong');
      expect(await outcome(client.callTool({ name: 'ping', arguments: {} }))).toContain('pong');
    } finally {
      await client.close();
      await other.close();
    }
  });
});
