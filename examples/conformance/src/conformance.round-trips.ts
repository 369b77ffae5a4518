import { Ctx, Prompt, Tool, type ToolContext } from '@toolwright/core';
import { IsBoolean, IsString } from '@toolwright/core/dto';

/** The forms the round-trip fixtures ask for. */
export class NameForm {
  @IsString() name!: string;
}
export class ColorForm {
  @IsString() color!: string;
}
export class ConfirmForm {
  @IsBoolean() ok!: boolean;
}
export class ContextForm {
  @IsString() context!: string;
}

const CAPITAL = 'What is the capital of France?';
const said = (reply: { content: { type: string; text?: string } }) => (reply.content.type === 'text' ? reply.content.text : `[${reply.content.type}]`);

/**
 * The 2026-07-28 round-trip fixtures (SEP-2322 `input_required`), written like any other tool:
 * the same `ctx.elicit` / `ctx.sample` / `ctx.listRoots` serve a 2025 session (a request to the
 * client) and a 2026-07-28 request (an `input_required` round; the method runs again with the
 * answers). `key` gives each question the name the suite expects.
 */
export class ConformanceRoundTrips {
  @Tool({ name: 'test_input_required_result_elicitation', description: "Asks the user's name, then greets them." })
  async elicitation(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('What is your name?', NameForm, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name given (${answer.action}).`;
  }

  @Tool({ name: 'test_input_required_result_sampling', description: "Asks the client's model a question." })
  async sampling(@Ctx() ctx: ToolContext) {
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: CAPITAL } }], maxTokens: 100 }, { key: 'capital_question' });
    return `The model said: ${said(reply)}`;
  }

  @Tool({ name: 'test_input_required_result_list_roots', description: "Lists the client's roots." })
  async listRoots(@Ctx() ctx: ToolContext) {
    const roots = await ctx.listRoots({ key: 'client_roots' });
    return `Roots: ${roots.map((r) => r.uri).join(', ') || 'none'}`;
  }

  @Tool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation; the answer comes back with the signed request state.' })
  async requestState(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Please confirm', ConfirmForm, { key: 'confirm' });
    // Reaching this line on a 2026-07-28 request means the echoed requestState passed its integrity check.
    return `state-ok: confirmed=${answer.action === 'accept' && answer.content.ok}`;
  }

  @Tool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks the user, the model and the roots in one round.' })
  async multipleInputs(@Ctx() ctx: ToolContext) {
    const [user, greeting, roots] = await Promise.all([
      ctx.elicit('What is your name?', NameForm, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }, { key: 'greeting' }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    const name = user.action === 'accept' ? user.content.name : 'stranger';
    return `${said(greeting)} ${name}; roots: ${roots.map((r) => r.uri).join(', ') || 'none'}`;
  }

  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions, one round each.' })
  async multiRound(@Ctx() ctx: ToolContext) {
    const step1 = await ctx.elicit('Step 1: What is your name?', NameForm, { key: 'step1' });
    const name = step1.action === 'accept' ? step1.content.name : 'stranger';
    const step2 = await ctx.elicit(`Step 2: What is your favorite color, ${name}?`, ColorForm, { key: 'step2' });
    return `${name} likes ${step2.action === 'accept' ? step2.content.color : 'no color'}.`;
  }

  @Tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation; a modified request state is refused.' })
  async tamperedState(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Please confirm', ConfirmForm, { key: 'confirm' });
    return `confirmed=${answer.action === 'accept' && answer.content.ok}`;
  }

  @Tool({ name: 'test_input_required_result_capabilities', description: 'Asks only what the client declared it can answer.' })
  async capabilities(@Ctx() ctx: ToolContext) {
    const { elicitation, sampling } = ctx.clientCapabilities;
    const parts: string[] = [];
    if (sampling) parts.push(`model: ${said(await ctx.sample(CAPITAL, { maxTokens: 50, key: 'capital_question' }))}`);
    if (elicitation) {
      const answer = await ctx.elicit('What is your name?', NameForm, { key: 'user_name' });
      parts.push(`user: ${answer.action === 'accept' ? answer.content.name : answer.action}`);
    }
    return parts.join('; ') || 'The client can answer nothing: no sampling, no elicitation.';
  }

  @Tool({ name: 'test_missing_capability', description: "Needs the client's model: refused when the client lacks sampling." })
  async missingCapability(@Ctx() ctx: ToolContext) {
    return said(await ctx.sample(CAPITAL, { maxTokens: 50 }));
  }

  @Tool({ name: 'test_streaming_elicitation', description: 'Asks the user while its response streams.' })
  async streamingElicitation(@Ctx() ctx: ToolContext) {
    await ctx.progress(50, 100, 'asking');
    const answer = await ctx.elicit('Continue?', ConfirmForm);
    return `Streaming complete: ${answer.action}`;
  }

  @Prompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for its context first.' })
  async contextPrompt(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('What context should the prompt use?', ContextForm, { key: 'user_context' });
    return `Use this context: ${answer.action === 'accept' ? answer.content.context : 'none'}`;
  }
}
