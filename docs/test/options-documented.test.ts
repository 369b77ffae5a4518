/**
 * Every option of the main entry points has a row in its guide page's options table, and every
 * row names an option that exists: the keys are read from the TypeScript source, so a new,
 * renamed or removed option fails here until the page says so.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { optionKeys, tableOptions, type OptionsType } from './optionTables';

const GUIDE = join(__dirname, '..', 'guide');
const LISTEN = { except: ['transport'] };

/** Which page's options tables document which types. */
const PAGES: Record<string, readonly OptionsType[]> = {
  'app-options.md': [{ source: 'packages/server/src/app/AppOptions.ts', name: 'AppOptions' }],
  'transports.md': [{ source: 'packages/server/src/stdio/StdioListenOptions.ts', name: 'StdioListenOptions', ...LISTEN }],
  'http.md': [
    { source: 'packages/server/src/http/HttpListenOptions.ts', name: 'HttpListenOptions', ...LISTEN },
    { source: 'packages/server/src/http/InMemoryEventStore.ts', name: 'InMemoryEventStoreOptions' },
  ],
  'fetch.md': [{ source: 'packages/server/src/fetch/FetchHandlerOptions.ts', name: 'FetchHandlerOptions', ownOnly: true }],
  'proxy.md': [
    { source: 'packages/server/src/compose/proxy/ProxyOptions.ts', name: 'ProxyHttpOptions' },
    { source: 'packages/server/src/compose/proxy/ProxyOptions.ts', name: 'ProxyStdioOptions' },
  ],
  'deployment.md': [{ source: 'packages/redis/src/createRedisCluster.ts', name: 'RedisClusterOptions' }],
  'tools.md': [
    { source: 'packages/core/src/metadata/ToolOptions.ts', name: 'ToolOptions' },
    { source: 'packages/core/src/metadata/ParamOptions.ts', name: 'ParamOptions' },
  ],
  'resources.md': [{ source: 'packages/core/src/metadata/ResourceOptions.ts', name: 'ResourceOptions' }],
  'prompts.md': [{ source: 'packages/core/src/metadata/PromptOptions.ts', name: 'PromptOptions' }],
  'dtos.md': [{ source: 'packages/core/src/decorators/Property.ts', name: 'PropertyOptions' }],
  'apps.md': [
    { source: 'packages/core/src/apps/McpApps.ts', name: 'UiFileOptions' },
    { source: 'packages/core/src/apps/McpApps.ts', name: 'ToolUiOptions' },
  ],
  'skills.md': [{ source: 'packages/server/src/extensions/skills/skills.ts', name: 'SkillsOptions' }],
  'testing.md': [
    { source: 'packages/server/src/testing/createTestClient.ts', name: 'MemoryTestClientOptions' },
    { source: 'packages/server/src/testing/createTestClient.ts', name: 'HttpTestClientOptions' },
    { source: 'packages/server/src/testing/createTestClient.ts', name: 'StdioTestClientOptions' },
  ],
  'context.md': [{ source: 'packages/core/src/context/ToolContext.ts', name: 'RoundTripOptions' }],
  'protocol-eras.md': [{ source: 'packages/server/src/roundtrip/RequestStateCodec.ts', name: 'RequestStateOptions' }],
  'tasks.md': [
    { source: 'packages/server/src/extensions/tasks/TasksOptions.ts', name: 'TasksOptions' },
    { source: 'packages/server/src/testing/createTaskClient.ts', name: 'TaskClientOptions' },
    { source: 'packages/server/src/testing/createTaskClient.ts', name: 'RunTaskOptions' },
  ],
  'schemas.md': [{ source: 'packages/core/src/validation/compileSchemaValidator.ts', name: 'SchemaValidatorOptions' }],
  'observability.md': [{ source: 'packages/server/src/telemetry/TelemetryOptions.ts', name: 'TelemetryOptions' }],
  'middleware.md': [
    { source: 'packages/server/src/middleware/timing.ts', name: 'TimingOptions' },
    { source: 'packages/server/src/middleware/rateLimit.ts', name: 'RateLimitOptions' },
    { source: 'packages/server/src/middleware/cache.ts', name: 'CacheOptions' },
    { source: 'packages/server/src/middleware/maxResultSize.ts', name: 'MaxResultSizeOptions' },
    { source: 'packages/server/src/middleware/MemoryRateLimitStore.ts', name: 'MemoryRateLimitStoreOptions' },
    { source: 'packages/server/src/middleware/MemoryCacheStore.ts', name: 'MemoryCacheStoreOptions' },
  ],
  'oauth.md': [{ source: 'packages/oauth/src/OAuthServerOptions.ts', name: 'OAuthServerOptions' }],
  'security.md': [
    { source: 'packages/server/src/auth/HttpAuthOptions.ts', name: 'HttpAuthOptions' },
    { source: 'packages/server/src/auth/jwtVerifier.ts', name: 'JwtVerifierOptions' },
    { source: 'packages/server/src/auth/envAuthInfo.ts', name: 'EnvAuthInfoOptions' },
  ],
};

/** The options of `types` no options table of `markdown` lists. */
function undocumented(keys: Map<OptionsType, string[]>, types: readonly OptionsType[], markdown: string): string[] {
  const listed = tableOptions(markdown);
  return types.flatMap((type) =>
    keys
      .get(type)!
      .filter((key) => !listed.has(key))
      .map((key) => `${type.name}.${key} (${type.source})`),
  );
}

describe('options tables of the guide', () => {
  const keys = optionKeys(Object.values(PAGES).flat());
  const known = new Set([...keys.values()].flat());

  it.each(Object.entries(PAGES))('docs/guide/%s lists every option', (page, types) => {
    const missing = undocumented(keys, types, readFileSync(join(GUIDE, page), 'utf8'));
    if (missing.length > 0) throw new Error(`docs/guide/${page} has no options table row for ${missing.join(', ')}: add a row | \`name\` | default | what it does |.`);
  });

  it.each(Object.keys(PAGES))('docs/guide/%s lists no option that does not exist', (page) => {
    const unknown = [...tableOptions(readFileSync(join(GUIDE, page), 'utf8'))].filter((name) => !known.has(name));
    if (unknown.length > 0) throw new Error(`docs/guide/${page} lists ${unknown.join(', ')} in an options table, but no documented options type has it: rename or remove the row.`);
  });

  it('fails for an option added without a row, and reads rows as the pages write them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwright-docs-options-'));
    try {
      writeFileSync(
        join(dir, 'FakeOptions.ts'),
        'interface Base {\n  inherited?: number;\n}\nexport interface FakeOptions extends Base {\n  documented?: number;\n  added?: string;\n  /** @deprecated */\n  old?: string;\n}\n',
      );
      const fake: OptionsType = { source: join(dir, 'FakeOptions.ts'), name: 'FakeOptions' };
      const own: OptionsType = { ...fake, ownOnly: true };
      const fakeKeys = optionKeys([fake, own]);
      const page = '| option | default | |\n| --- | --- | --- |\n| `documented`, `inherited(x)` | 1 | prose naming `added` |\n\n| limit | option |\n| --- | --- |\n| `added` | x |\n';
      expect(undocumented(fakeKeys, [fake], page)).toEqual([`FakeOptions.added (${fake.source})`]);
      expect(fakeKeys.get(own)).toEqual(['documented', 'added']);
      expect([...tableOptions('| `@Fake` option | |\n| --- | --- |\n| `csp.connectDomains`, `plain` | `example: 1` |\n')]).toEqual(['csp', 'plain']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
