import 'reflect-metadata';
import { BuildError, Param, Prompt, Resource, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

/**
 * Resources, templates, prompts and completions fed hostile input through a real SDK client
 * in memory, in both eras: huge and tricky URIs, Object.prototype member names as prompt,
 * argument and template names, values that are not strings. Each gets the spec's JSON-RPC code
 * and a message that says what to fix, never a schema dump; the server keeps serving.
 */
class Library {
  @Resource('file:///static.txt')
  fixed() {
    return 'static';
  }
  @Resource('notes://{id}')
  note(@Param('id') id: string) {
    return `note:${JSON.stringify(id)}`;
  }
  @Resource('tree://{/path*}')
  tree(@Param('path', { type: () => [String] }) path: string[]) {
    return JSON.stringify(path);
  }
  @Resource('many://{a}-{b}-{c}-{d}/{+rest}')
  many(@Param('a') a: string, @Param('b') b: string, @Param('c') c: string, @Param('d') d: string, @Param('rest') rest: string) {
    return [a, b, c, d, rest].join('|');
  }
  @Prompt({ description: 'Greet someone.' })
  greet(@Param('name', { complete: () => Array.from({ length: 300 }, (_, i) => `v${i}`) }) name: string) {
    return `hi ${name}`;
  }
  @Prompt({ description: 'Providers that misreport what they left out.' })
  odd(
    @Param('lying', { complete: () => ({ values: Array.from({ length: 300 }, (_, i) => `v${i}`), total: 5, hasMore: false }) }) lying: string,
    @Param('malformed', { complete: () => ({ values: ['x'], total: 'lots' as unknown as number, hasMore: 'yes' as unknown as boolean }) }) malformed: string,
    @Param('negative', { complete: () => ({ values: ['x', 'y'], total: -3 }) }) negative: string,
  ) {
    return lying + malformed + negative;
  }
}

/** The SDK client checks no result: a raw request answers what the server sent. */
const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
type Answer = { result?: Record<string, unknown>; code?: unknown; message?: string };
/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'hostile-library', version: '1.0.0', tools: [Library] });
});

describe.each(['2025-11-25', '2026-07-28'] as const)('over %s', (protocol) => {
  let client: Client;
  let stderr: jest.SpyInstance;
  beforeAll(async () => {
    client = (await createTestClient(app, { protocol })) as Client;
  });
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());
  afterAll(() => client.close());

  const send = async (method: string, params: unknown): Promise<Answer> => {
    try {
      return { result: (await client.request({ method, params } as never, ANY as never)) as Record<string, unknown> };
    } catch (error) {
      const { code, message } = error as { code?: unknown; message: string };
      return { code, message };
    }
  };
  const text = (answer: Answer) => ((answer.result?.contents as { text: string }[] | undefined) ?? [])[0]?.text;

  it('refuses a 1 MB URI with -32602 without echoing it or running a template', async () => {
    for (const uri of [`notes://${'a'.repeat(1_100_000)}`, `file:///${'a'.repeat(1_100_000)}`]) {
      const answer = await send('resources/read', { uri });
      expect(answer.code).toBe(-32602);
      expect(answer.message).toBe("Invalid params: the URI is 1100008 characters long; this server reads URIs of at most 2048 characters (the app's maxUriLength).");
    }
  });

  it('decodes percent-escapes once, as data, and refuses malformed ones as unknown URIs', async () => {
    expect(text(await send('resources/read', { uri: 'notes://a%2Fb' }))).toBe('note:"a/b"');
    expect(text(await send('resources/read', { uri: 'notes://a%00b' }))).toBe('note:"a\\u0000b"');
    expect(text(await send('resources/read', { uri: 'notes://__proto__' }))).toBe('note:"__proto__"');
    // `..` is data for the method: a template never resolves paths.
    expect(text(await send('resources/read', { uri: 'tree:///a/%2e%2e/../x' }))).toBe('["a","..","..","x"]');
    for (const uri of ['notes://%C0%AF', 'notes://%E0%A4%A', 'notes://%ED%A0%80', 'ﬁle:///static.txt']) {
      expect(await send('resources/read', { uri })).toEqual({ code: -32602, message: `Resource not found: ${uri}. Call resources/list and resources/templates/list to see what this server offers.` });
    }
  });

  it('matches a URI crafted against a template with many variables in linear time', async () => {
    // The CPU time of this process, where client and server both run (in memory): backtracking would spend seconds of it.
    const started = process.cpuUsage();
    for (const uri of [`many://${'-'.repeat(2000)}/x`, `many://${'a-'.repeat(1000)}`, `many://${'a-'.repeat(3)}a/${'/'.repeat(2000)}`, `tree://${'/a'.repeat(1000)}`]) {
      const answer = await send('resources/read', { uri });
      expect(answer.code === -32602 || answer.result !== undefined).toBe(true);
    }
    expect(cpuMsSince(started)).toBeLessThan(2_000);
  });

  it('answers prompt names and argument names that are Object.prototype members as unknown', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(await send('prompts/get', { name })).toEqual({ code: -32602, message: `Unknown prompt '${name}'. Call prompts/list to see the available prompts.` });
      expect(await send('completion/complete', { ref: { type: 'ref/prompt', name }, argument: { name: 'x', value: '' } })).toMatchObject({ code: -32602 });
      expect(await send('completion/complete', { ref: { type: 'ref/resource', uri: name }, argument: { name: 'x', value: '' } })).toMatchObject({ code: -32602 });
      expect((await send('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name, value: '' } })).result?.completion).toEqual({ values: [] });
      // The SDK's parse of the arguments record drops an own `__proto__` key before any handler.
      if (name !== '__proto__') {
        expect(await send('prompts/get', { name: 'greet', arguments: { name: 'x', [name]: 'y' } })).toEqual({
          code: -32602,
          message: `Invalid arguments for prompt 'greet':\n- ${name}: is not allowed (unknown property)`,
        });
      }
    }
    expect(await send('prompts/get', { name: 'greet' })).toEqual({ code: -32602, message: "Invalid arguments for prompt 'greet':\n- name: is required" });
  });

  it('keeps a completion to 100 values with its total, whatever the context holds', async () => {
    const context = { arguments: JSON.parse('{"__proto__":"a","constructor":"b","name":"c"}') as Record<string, string> };
    const answer = await send('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'v'.repeat(1_000_000) }, context });
    const completion = answer.result?.completion as { values: string[]; total: number; hasMore: boolean };
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 300, hasMore: true });
  });

  it('answers a spec-shaped completion when the provider misreports its total or hasMore', async () => {
    const complete = async (name: string) =>
      (await send('completion/complete', { ref: { type: 'ref/prompt', name: 'odd' }, argument: { name, value: '' } })).result?.completion as { values: string[] };
    const lying = await complete('lying');
    expect(lying.values).toHaveLength(100);
    expect({ ...lying, values: undefined }).toEqual({ total: 300, hasMore: true });
    expect(await complete('malformed')).toEqual({ values: ['x'] });
    expect(await complete('negative')).toEqual({ values: ['x', 'y'] });
  });

  it('refuses completion context arguments that are not strings with -32602 naming the field', async () => {
    const expected = { code: -32602, message: 'Invalid params for completion/complete: params.context must be an object whose arguments, when present, map argument names to string values.' };
    for (const context of [{ arguments: { city: 5 } }, { arguments: { city: { a: 1 } } }, { arguments: ['x'] }, 'x', null]) {
      expect(await send('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: '' }, context })).toEqual(expected);
    }
    expect(text(await send('resources/read', { uri: 'file:///static.txt' }))).toBe('static');
  });
});

describe('Object.prototype member names in a member definition', () => {
  class PromptArgument {
    @Prompt({ description: 'p' })
    p(@Param('constructor') c: string) {
      return c;
    }
  }
  class TemplateVariable {
    @Resource('q://x{?toString}')
    q(@Param('toString', { optional: true }) t: string) {
      return String(t);
    }
  }
  class ToolArgument {
    @Tool({ description: 't' })
    t(@Param('valueOf') v: string) {
      return v;
    }
  }
  class ProtoVariable {
    @Resource('x://{/__proto__*}{?length}')
    x(@Param('length', { optional: true }) length: string) {
      return String(length);
    }
  }

  const problemsOf = async (cls: new () => object) => ((await createApp({ name: 'x', version: '1', tools: [cls] }).catch((e: unknown) => e)) as BuildError).problems;

  // They were dropped without a word: a required one was never required, a template variable never reached the method.
  it('refuses them as parameter names at build, naming the parameter and a name to use instead', async () => {
    expect(await problemsOf(PromptArgument)).toEqual([
      {
        where: "PromptArgument.p param #0 'constructor'",
        what: "its prompt argument name 'constructor' is also a member of every JavaScript object (Object.prototype), so a missing one could not be told from the inherited member",
        fix: "choose another name, such as 'constructor_'.",
      },
    ]);
    expect((await problemsOf(TemplateVariable)).map((p) => p.what)).toEqual([
      "its template variable name 'toString' is also a member of every JavaScript object (Object.prototype), so a missing one could not be told from the inherited member",
    ]);
    expect((await problemsOf(ToolArgument)).map((p) => p.what)).toEqual([
      "its tool argument name 'valueOf' is also a member of every JavaScript object (Object.prototype), so a missing one could not be told from the inherited member",
    ]);
  });

  it('refuses a __proto__ template variable, which would set the prototype of the matched values', async () => {
    expect(await problemsOf(ProtoVariable)).toEqual([
      {
        where: 'ProtoVariable.x',
        what: "its URI template 'x://{/__proto__*}{?length}' is invalid: '{/__proto__*}' has the variable name '__proto__', which cannot hold a value",
        fix: "rename it, e.g. '{proto}'.",
      },
    ]);
  });
});
