import 'reflect-metadata';
import { Param, Prompt, Resource, Tool, UseGuards } from '@toolwright/core';
import { createTestClient } from '@toolwright/server/testing';
import { brokenGuard } from './fixtures/brokenGuard';
import { clientsWithFailingLoggers } from './fixtures/clientsWithFailingLoggers';

/**
 * A guard step that fails for another reason than a refusal (a guard throws, and the logger throws
 * while it records that) on resources/read and prompts/get: the generic -32603, logged once the
 * logger works again, no detail of the failure on the wire, and the server keeps serving.
 */
const broken = brokenGuard;
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
    const { lines, client, other, close } = await clientsWithFailingLoggers([Broken], era);
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
      await close();
    }
  });
});
