import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

describe('loading tool classes from globs', () => {
  it('loads ES modules with dynamic import() and serves their tools', async () => {
    // A child process: jest's CommonJS sandbox cannot run import() of an ES module.
    const script = `
      require('reflect-metadata');
      const { createApp } = require('@toolwright/server');
      const { createTestClient } = require('@toolwright/server/testing');
      (async () => {
        const app = await createApp({ name: 'esm', version: '1', tools: ['esm-tools/*.mjs'], cwd: ${JSON.stringify(join(__dirname, 'fixtures'))} });
        const client = await createTestClient(app);
        const result = await client.callTool({ name: 'shout', arguments: { text: 'hi' } });
        process.stdout.write(JSON.stringify({ tools: app.registry.tools.map((t) => t.name), result }));
        await client.close();
      })();`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..', '..') });
    expect(JSON.parse(stdout)).toEqual({ tools: ['shout'], result: { content: [{ type: 'text', text: 'HI!' }] } });
  });
});
