import { audio, Ctx, embeddedResource, image, Param, Property, text, Tool, ToolError, type ElicitationSchema, type ToolContext } from '@toolwright/core';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString } from '@toolwright/core/dto';
import { PNG, WAV } from './media';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The form `test_elicitation` asks for; the accepted content comes back as an instance. */
export class UserInfo {
  @IsString() username!: string;
  @IsString() email!: string;
}

/** SEP-1034: a default on every primitive type. */
export class ProfileDefaults {
  @Property({ default: 'John Doe' }) @IsString() name!: string;
  @Property({ default: 30 }) @IsInt() age!: number;
  @Property({ default: 95.5 }) @IsNumber() score!: number;
  @Property({ default: 'active' }) @IsIn(['active', 'inactive', 'pending']) status!: string;
  @Property({ default: true }) @IsBoolean() verified!: boolean;
}

/** SEP-1330: titled and untitled, single- and multi-select enums (a raw schema: a class cannot title enum values). */
export const ENUM_FORM: ElicitationSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/** Every tool fixture of the conformance suite (conformance.md §4). */
export class ConformanceTools {
  @Tool({ name: 'test_simple_text', description: 'Returns a simple text response.' })
  simpleText() {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Returns an image.' })
  imageContent() {
    return image(PNG, 'image/png');
  }

  @Tool({ name: 'test_audio_content', description: 'Returns an audio clip.' })
  audioContent() {
    return audio(WAV, 'audio/wav');
  }

  @Tool({ name: 'test_embedded_resource', description: 'Returns an embedded resource.' })
  embedded() {
    return embeddedResource({ uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' });
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Returns text, an image and a resource.' })
  mixed() {
    return [
      text('Multiple content types test:'),
      image(PNG, 'image/png'),
      embeddedResource({ uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' }),
    ];
  }

  @Tool({ name: 'test_tool_with_logging', description: 'Logs three messages while it runs.' })
  async withLogging(@Ctx() ctx: ToolContext) {
    ctx.log.info('Tool execution started');
    await sleep(50);
    ctx.log.info('Tool processing data');
    await sleep(50);
    ctx.log.info('Tool execution completed');
    return 'Logging test completed';
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100.' })
  async withProgress(@Ctx() ctx: ToolContext) {
    await ctx.progress(0, 100);
    await sleep(50);
    await ctx.progress(50, 100);
    await sleep(50);
    await ctx.progress(100, 100);
    return 'Progress test completed';
  }

  @Tool({ name: 'test_error_handling', description: 'Always fails with a tool error.' })
  failing(): string {
    throw new ToolError('This tool intentionally returns an error for testing');
  }

  @Tool({ name: 'test_sampling', description: "Asks the client's model to answer a prompt." })
  async sampling(@Param('prompt', { description: 'The prompt to send' }) prompt: string, @Ctx() ctx: ToolContext) {
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return `LLM response: ${reply.content.type === 'text' ? reply.content.text : `[${reply.content.type}]`}`;
  }

  @Tool({ name: 'test_elicitation', description: 'Asks the user for a username and an email.' })
  async elicitation(@Param('message', { description: 'What to ask' }) message: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(message, UserInfo);
    return `User response: action=${answer.action}, content=${answer.action === 'accept' ? JSON.stringify(answer.content) : 'none'}`;
  }

  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks for a form whose fields all have defaults (SEP-1034).' })
  async elicitationDefaults(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Please review your profile', ProfileDefaults);
    return `Elicitation completed: action=${answer.action}, content=${answer.action === 'accept' ? JSON.stringify(answer.content) : 'none'}`;
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Asks for a form with every kind of enum (SEP-1330).' })
  async elicitationEnums(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Please choose your options', ENUM_FORM);
    return `Elicitation completed: action=${answer.action}, content=${answer.action === 'accept' ? JSON.stringify(answer.content) : 'none'}`;
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Takes an input described by a raw JSON Schema 2020-12 document, served unchanged.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  })
  jsonSchema(input: { name?: string; address?: { street?: string; city?: string } }) {
    return `Received: ${JSON.stringify(input)}`;
  }

  @Tool({ name: 'test_reconnection', description: 'Closes its stream, then answers a moment later (SSE polling scenario).' })
  async reconnection(@Ctx() ctx: ToolContext) {
    ctx.closeStream();
    await sleep(100);
    return 'Reconnection test completed';
  }

  @Tool({ name: 'test_custom_headers', description: 'Routes by region: the region also travels as the Mcp-Param-Region HTTP header (SEP-2243).' })
  customHeaders(
    @Param('region', { description: "Where to run, e.g. 'eu-west-1'", header: 'Region' }) region: string,
    @Param('priority', { description: 'Queue priority', type: () => Number, integer: true, optional: true, header: 'Priority' }) priority: number | undefined,
    @Param('query', { description: 'What to look up (body only)', type: () => String, optional: true }) query: string | undefined,
  ) {
    return `region=${region} priority=${priority ?? 'none'} query=${query ?? ''}`;
  }
}
