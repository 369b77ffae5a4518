import 'reflect-metadata';
import { assistantMessage, BuildError, buildRegistry, embeddedResource, image, Param, Prompt, ToolError, userMessage } from '@toolwright/core';
import { useQuietClient } from './fixtures/useQuietClient';

enum Tone {
  Formal = 'formal',
  Casual = 'casual',
}

class WritingPrompts {
  @Prompt({ description: 'A plain prompt.' })
  simple() {
    return 'Say hello.';
  }

  @Prompt({ name: 'review', title: 'Code review', description: 'Review code.', icons: [{ src: 'https://example.com/r.svg' }] })
  reviewCode(
    @Param('code', { description: 'The code to review' }) code: string,
    @Param('tone', { enum: Tone, optional: true }) tone: Tone | undefined,
    @Param('lines', { type: () => Number, integer: true, minimum: 1, optional: true }) lines: number | undefined,
  ) {
    return `Review this ${tone ?? 'neutral'}ly (${typeof lines}:${lines ?? 'all'} lines):\n${code}`;
  }

  @Prompt({ description: 'Rich content.' })
  rich(@Param('uri') uri: string) {
    return [
      userMessage(embeddedResource({ uri, mimeType: 'text/plain', text: 'inside' })),
      userMessage(image(Buffer.from([1, 2, 3]), 'image/png', { audience: ['user'] })),
      assistantMessage('I see a resource and an image.'),
      'Now explain them.',
    ];
  }

  @Prompt({ description: 'Returns the whole result.' })
  whole() {
    return { description: 'described', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
  }

  @Prompt({ description: 'Fails for the model.' })
  refuses(): string {
    throw new ToolError('This prompt is not available today.');
  }

  @Prompt({ description: 'Returns something unusable.' })
  weird() {
    return 42;
  }
}

describe('prompts through a real SDK client (in memory)', () => {
  const suite = useQuietClient({ name: 'writing', version: '1.0.0', tools: [WritingPrompts] });

  it('declares prompts and completions', () => {
    expect(suite.client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, completions: {} });
  });

  it('lists prompts with their declared arguments', async () => {
    const { prompts } = await suite.client.listPrompts();
    expect(prompts.find((p) => p.name === 'simple')).toEqual({ name: 'simple', description: 'A plain prompt.' });
    expect(prompts.find((p) => p.name === 'review')).toEqual({
      name: 'review',
      title: 'Code review',
      description: 'Review code.',
      icons: [{ src: 'https://example.com/r.svg' }],
      arguments: [
        { name: 'code', description: 'The code to review', required: true },
        { name: 'tone', required: false },
        { name: 'lines', required: false },
      ],
    });
  });

  it('turns a string into one user message', async () => {
    expect(await suite.client.getPrompt({ name: 'simple' })).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }] });
  });

  it('converts and validates string arguments', async () => {
    const result = await suite.client.getPrompt({ name: 'review', arguments: { code: 'x = 1', tone: 'casual', lines: '3' } });
    expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Review this casually (number:3 lines):\nx = 1' } }]);
  });

  it('supports embedded resources, images and assistant messages', async () => {
    expect((await suite.client.getPrompt({ name: 'rich', arguments: { uri: 'test://r' } })).messages).toEqual([
      { role: 'user', content: { type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'inside' } } },
      { role: 'user', content: { type: 'image', data: 'AQID', mimeType: 'image/png', annotations: { audience: ['user'] } } },
      { role: 'assistant', content: { type: 'text', text: 'I see a resource and an image.' } },
      { role: 'user', content: { type: 'text', text: 'Now explain them.' } },
    ]);
    expect(await suite.client.getPrompt({ name: 'whole' })).toEqual({ description: 'described', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
  });

  it('answers missing, unknown and invalid arguments with -32602 and one line per field', async () => {
    await expect(suite.client.getPrompt({ name: 'review', arguments: { tone: 'angry', lines: 'many', extra: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        [
          "Invalid arguments for prompt 'review':",
          '- code: is required',
          '- tone: must be one of: "formal", "casual" (got "angry")',
          '- lines: must be an integer (got string "many")',
          '- extra: is not allowed (unknown property)',
        ].join('\n'),
      ),
    });
  });

  it('answers an unknown prompt with -32602', async () => {
    await expect(suite.client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt 'nope'") });
  });

  it('sends a ToolError message as -32603, and hides other failures', async () => {
    await expect(suite.client.getPrompt({ name: 'refuses' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('This prompt is not available today.') });
    await expect(suite.client.getPrompt({ name: 'weird' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("The prompt 'weird' failed with an internal error") });
    expect(suite.stderr.mock.calls.join('')).toContain("prompt 'weird' returned an unsupported message #0 (42)");
  });
});

describe('prompt build errors', () => {
  it('refuses arguments that cannot be one string', () => {
    class Point {
      x!: number;
    }
    class Bad {
      @Prompt() list(@Param('items', { type: () => [String] }) items: string[]) {
        return items.join();
      }
      @Prompt() obj(@Param('p') p: Point) {
        return String(p);
      }
      @Prompt() undecorated(code: string) {
        return code;
      }
      @Prompt({ name: 'has space' }) named() {
        return '';
      }
    }
    let error: BuildError | undefined;
    try {
      buildRegistry({ tools: [Bad] });
    } catch (e) {
      error = e as BuildError;
    }
    expect(error!.problems.map((p) => `${p.where}: ${p.what}`)).toEqual([
      "Bad.list param #0 'items': is a prompt argument, which arrives as one string, but its type is an array",
      "Bad.obj param #0 'p': is a prompt argument, which arrives as one string, but its type is an object",
      'Bad.undecorated param #0: has no decorator, so Toolwright cannot tell what to pass',
      "Bad.named: its prompt name 'has space' is invalid",
    ]);
  });
});
