/**
 * The server throws Toolwright errors, never a plain `Error`: `ConfigError` for a wrong option
 * or argument, `ProtocolError` for what a client sent, `ToolwrightError` (kind 'internal') for
 * a bug to report. So callers can switch on `error.kind` (docs: Errors). This reads the sources
 * of the server, of core and of the packages that serve beside it (@toolwright/redis, the framework
 * adapters) and fails on a new
 * `new Error(` / `new TypeError(` / `extends Error` outside the allowlist.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const PACKAGES = join(__dirname, '..', '..');
const PLAIN = /\bnew (Error|TypeError|RangeError|SyntaxError)\(|\bextends (Error|TypeError|RangeError)\b/;

/** Each source folder checked, with where a plain error is right there, and why. A path ending in '/' allows a folder. */
const CHECKED: Record<string, Record<string, string>> = {
  'server/src': {
    'testing/toolResults.ts': "assertion helpers (toolText, structuredResult...) fail the user's test; a plain Error reads as a failed assertion, not as a server failure",
    'testing/toolSchema.ts': 'as testing/toolResults.ts (toolSchema, outputSchema)',
    'testing/createTaskClient.ts': "TaskRequestError, a public type whose base (Error) is in @toolwright/server's API report: what it throws is a ProtocolError",
  },
  'core/src': {
    'errors/ToolwrightError.ts': "a wrong `kind` given to an error class's own constructor is a TypeError, as a built-in's wrong argument is",
    'invoke/sendable.ts': "UnsendableResult marks a result JSON cannot carry for the invokers, which catch it and answer the tool's internal error; it never reaches the app",
    'invoke/MalformedResult.ts': "as invoke/sendable.ts, for a result MCP's schema refuses (a content annotation out of its range)",
    'uri/UriTemplateError.ts': "a public class whose base (Error) is in @toolwright/core's API report; moving it under ToolwrightError is an API change",
  },
  'nestjs/src': {},
  'express/src': {},
  'hono/src': {},
  'next/src': {},
  'fastify/src': {
    'toolwrightPlugin.ts': '@toolwright/fastify peers @toolwright/server alone, which does not export ConfigError; its registration errors name the fix',
    'authorizationServerRoutes.ts': 'as toolwrightPlugin.ts',
    'literalRoute.ts': 'as toolwrightPlugin.ts',
    'BodyParseError.ts': "an error Fastify's error handler reads statusCode from (400), the shape Fastify's own body errors have",
  },
  'redis/src': {
    'RedisUnavailableError.ts': "a public class whose base (Error) is in @toolwright/redis's API report; moving it under ToolwrightError is an API change",
  },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const covers = (rule: string, file: string) => (rule.endsWith('/') ? file.startsWith(rule) : file === rule);

describe.each(Object.entries(CHECKED))('packages/%s throws Toolwright errors', (root, allowed) => {
  const src = join(PACKAGES, root);
  const files = sources(src).map((path) => ({ path, file: relative(src, path).split('\\').join('/') }));

  it('has no plain Error outside the allowlist', () => {
    const found = files
      .filter(({ file }) => !Object.keys(allowed).some((rule) => covers(rule, file)))
      .flatMap(({ path, file }) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${file}:${i + 1}`, line: line.trim() }))
          .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && PLAIN.test(line)),
      )
      .map(({ where, line }) => `${where}: ${line}`);
    // Fix: throw ConfigError (a wrong option or argument, say which and how to fix it),
    // ProtocolError (what the client sent) or ToolwrightError (kind 'internal': a bug to report).
    expect(found).toEqual([]);
  });

  it('allows only files and folders that exist and still need it', () => {
    for (const rule of Object.keys(allowed)) {
      const covered = files.filter(({ file }) => covers(rule, file));
      expect({ rule, needed: covered.some(({ path }) => PLAIN.test(readFileSync(path, 'utf8'))) }).toEqual({ rule, needed: true });
    }
  });
});
