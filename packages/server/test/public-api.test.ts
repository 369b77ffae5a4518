/**
 * The runtime surface of every published entry point, pinned: adding or removing an export
 * is an API change and should be a deliberate edit of this list. Runs on the built packages,
 * as users import them (package `exports`, not the sources).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ENTRY_POINTS: Record<string, string[]> = {
  '@toolwright/core': [
    'Args',
    'BuildError',
    'CallInterrupt',
    'ConfigError',
    'Ctx',
    'LOG_LEVELS',
    'Param',
    'Prompt',
    'Property',
    'Public',
    'RequireRoles',
    'RequireClientExtension',
    'UiResource',
    'UI_EXTENSION',
    'MCP_APP_MIME_TYPE',
    'FromCall',
    'OnShutdown',
    'OnStart',
    'RequireScopes',
    'Resource',
    'ResourceNotFoundError',
    'Scoped',
    'StartupError',
    'Tool',
    'ToolError',
    'ToolwrightError',
    'TransformTools',
    'UseGuards',
    'UseMiddleware',
    'assistantMessage',
    'audio',
    'buildRegistry',
    'clientExtension',
    'clientExtensionIds',
    'compileSchemaValidator',
    'embeddedResource',
    'image',
    'resourceLink',
    'stderrLogger',
    'text',
    'userMessage',
  ],
  // Property and class-transformer's property decorators, then every class-validator decorator (the classes excepted).
  '@toolwright/core/dto': ['Exclude', 'Expose', 'Property', 'Transform', 'Type', 'registerDecorator', ...classValidatorDecorators()],
  // For Toolwright's own packages and tests only (no compatibility promise, no API report), pinned all the same.
  '@toolwright/core/internal': [
    'MAX_ARGUMENT_DEPTH',
    'SERVER_INFO_SHAPE',
    'ServiceScope',
    'X_MCP_HEADER',
    'argumentDepthIssue',
    'cacheHintProblem',
    'checkGuards',
    'compileElicitationForm',
    'compileUriTemplate',
    'compiledRegistry',
    'composeMiddleware',
    'createDefaultContainer',
    'cutText',
    'defaultToolName',
    'injectedClasses',
    'isGuardClass',
    'isMiddlewareClass',
    'timeoutProblem',
    'TOOL_NAME_PATTERN',
    'invalidArguments',
    'isToolClass',
    'issueLines',
    'joinedHeader',
    'joinedLines',
    'jsonLogLine',
    'jsonProblem',
    'lifetimeOf',
    'LogThrottle',
    'logLineText',
    'readCappedText',
    'readHooks',
    'responseClosed',
    'scanParamHeaders',
    'shapeProblem',
    'toolErrorResult',
    'toolFailure',
    'toolTaskMode',
    'transformTool',
  ],
  '@toolwright/server': ['ErrorCodes', 'MemoryTaskStore', 'ProtocolError', 'SKILLS_EXTENSION', 'TASKS_EXTENSION_ID', 'apps', 'createApp', 'defineExtension', 'parseListenArgs', 'skills', 'tasks'],
  '@toolwright/server/stdio': ['StdioTransport', 'protectStdout', 'serveStdio'],
  '@toolwright/server/http': ['EventBudget', 'GET_STREAM_ID', 'InMemoryEventStore', 'bodyEncodingRefusal', 'createAppStarter', 'createHttpHandler', 'drainWindow', 'parseJsonBody', 'serveHttp'],
  '@toolwright/server/fetch': ['createAppStarter', 'createFetchHandler', 'drainWindow'],
  '@toolwright/server/auth': ['envAuthInfo', 'jwtVerifier'],
  '@toolwright/server/middleware': ['MemoryCacheStore', 'MemoryRateLimitStore', 'cache', 'maxResultSize', 'normalizeErrors', 'rateLimit', 'timing'],
  '@toolwright/server/compile-cache': ['compileCache'],
  '@toolwright/server/proxy': ['proxyServer'],
  '@toolwright/server/testing': ['createTaskClient', 'createTestClient', 'structuredResult', 'toolError', 'toolSchema', 'toolText'],
  '@toolwright/redis': ['RedisTaskStore', 'RedisUnavailableError', 'createRedisCluster', 'createRedisMiddlewareStores', 'createRedisOAuthStore', 'createRedisRequestStateStore'],
  '@toolwright/express': ['toolwrightMiddleware'],
  '@toolwright/fastify': ['createToolwrightPlugin', 'toolwrightPlugin'],
  '@toolwright/hono': ['toolwrightMiddleware'],
  '@toolwright/next': ['createRouteHandlers'],
  '@toolwright/nestjs': ['TOOLWRIGHT_CONTEXT', 'TOOLWRIGHT_OPTIONS', 'ToolwrightModule', 'ToolwrightServer', 'nestContainer', 'nestPipeline'],
  '@toolwright/openapi': ['fromOpenApi'],
  '@toolwright/oauth': [
    'DocumentRefusedError',
    'MemoryOAuthStore',
    'OAUTH_STORE_FULL',
    'OAuthStoreFullError',
    'auth0Upstream',
    'createOAuthServer',
    'entraUpstream',
    'fetchDocumentFetcher',
    'githubUpstream',
    'googleUpstream',
    'isPublicAddress',
    'keycloakUpstream',
    'nodeDocumentFetcher',
    'oidcUpstream',
    'oktaUpstream',
  ],
};

function classValidatorDecorators(): string[] {
  const classes = new Set(['MetadataStorage', 'ValidationError', 'ValidationTypes', 'Validator']);
  return Object.entries(require('class-validator') as Record<string, unknown>)
    .filter(([name, value]) => /^[A-Z]/.test(name) && typeof value === 'function' && !classes.has(name))
    .map(([name]) => name);
}

describe('public API', () => {
  it.each(Object.entries(ENTRY_POINTS))('%s exports exactly the pinned names', (entry, names) => {
    const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(entry)})).sort()))`;
    const exported = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..', '..'), encoding: 'utf8' })) as string[];
    expect(exported).toEqual([...names].sort());
  });
});
