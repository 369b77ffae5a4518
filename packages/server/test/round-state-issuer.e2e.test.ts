import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, type ModernClient } from '@toolwright/server/testing';

/**
 * A 2026-07-28 `requestState` is bound to the app that issued it (its `serverInfo` name): two
 * apps configured with the same `requestState.keys` (two servers of one company sharing a secret)
 * refuse each other's states for a tool of the same name called with the same arguments, while
 * every instance of one app (behind a load balancer, same keys) accepts the others' states.
 * Driven by the SDK v2 client over HTTP, pinned to 2026-07-28, in its manual round mode
 * (`allowInputRequired`), so the test holds the state between rounds.
 */

const KEY = 'shared-company-secret-of-at-least-32-bytes';
const OLD_KEY = 'the-previous-company-secret-32-bytes-or-more';

class Payments {
  @Tool({ description: 'Asks who approves, then pays.' })
  async pay(@Ctx() ctx: ToolContext) {
    const approval = await ctx.elicit('Who approves?', { type: 'object', properties: { approver: { type: 'string' } }, required: ['approver'] });
    return approval.action === 'accept' ? `paid, approved by ${(approval.content as { approver: string }).approver}` : 'not paid';
  }
}

type Round = { resultType: 'input_required'; inputRequests: Record<string, unknown>; requestState: string };
type Done = { content: { type: string; text: string }[] };
const APPROVAL = { action: 'accept', content: { approver: 'ada' } };

const client = (app: App): Promise<ModernClient> => createTestClient(app, { transport: 'http', protocol: '2026-07-28', capabilities: { elicitation: { form: {} } } });
const makeApp = (name: string, keys: readonly string[], mount?: App) =>
  createApp({ name, version: '1.0.0', tools: mount ? [] : [Payments], requestState: { keys }, ...(mount && { mount: [{ app: mount, namespace: 'payments' }] }) });

/** The first round of `tool` through `c`: the `input_required` result and its state. */
async function firstRound(c: ModernClient, tool = 'pay'): Promise<{ requestState: string; key: string }> {
  const round = (await c.callTool({ name: tool, arguments: {} }, { allowInputRequired: true })) as unknown as Round;
  expect(round.resultType).toBe('input_required');
  return { requestState: round.requestState, key: Object.keys(round.inputRequests)[0] };
}

/** The next round of `tool` through `c`, echoing `state` with the answer (the params the client's own retry sends, which `callTool`'s type does not list). */
function nextRound(c: ModernClient, state: { requestState: string; key: string }, tool = 'pay'): Promise<Done> {
  const params = { name: tool, arguments: {}, requestState: state.requestState, inputResponses: { [state.key]: APPROVAL } };
  return c.callTool(params as Parameters<ModernClient['callTool']>[0], { allowInputRequired: true }) as unknown as Promise<Done>;
}

/** The JSON-RPC error a round was refused with (the SDK client throws it as its `ProtocolError`); fails the test if the round was accepted. */
async function refusalOf(round: Promise<unknown>): Promise<{ code: number; message: string }> {
  const outcome = await round.then(
    (result) => ({ accepted: result }),
    (error: unknown) => ({ refused: error as { code: number; message: string } }),
  );
  expect(outcome).toEqual({ refused: expect.objectContaining({ code: expect.any(Number) }) });
  const { code, message } = (outcome as { refused: { code: number; message: string } }).refused;
  return { code, message };
}

/** `state` with a character in the middle of its sealed bytes changed (still canonical base64url). */
function changeOneCharacter(state: string): string {
  const at = Math.floor(state.length / 2);
  return `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
}

describe('2026-07-28 requestState is bound to the app that issued it', () => {
  const clients: ModernClient[] = [];
  const connect = async (app: App) => {
    const c = await client(app);
    clients.push(c);
    return c;
  };
  afterAll(() => Promise.all(clients.map((c) => c.close())));

  it("refuses another app's state (same keys, same tool, same arguments) as it refuses a modified one; another instance of the same app accepts it", async () => {
    const billing = await connect(await makeApp('billing', [KEY]));
    const billingAgain = await connect(await makeApp('billing', [KEY]));
    const payroll = await connect(await makeApp('payroll', [KEY]));

    const state = await firstRound(billing);
    const foreign = await refusalOf(nextRound(payroll, state));
    const modified = await refusalOf(nextRound(payroll, { ...state, requestState: changeOneCharacter(state.requestState) }));
    expect(foreign).toEqual({ code: -32602, message: expect.stringContaining('requestState failed its integrity check') });
    expect(foreign).toEqual(modified);

    // The refusal did not use the state up: the second instance of billing finishes the call.
    expect((await nextRound(billingAgain, state)).content[0].text).toBe('paid, approved by ada');
  });

  it('keeps a key rotation working across the instances of one app, and a foreign app stays refused during it', async () => {
    const before = await connect(await makeApp('billing', [OLD_KEY]));
    const during = await connect(await makeApp('billing', [KEY, OLD_KEY]));
    const foreignDuring = await connect(await makeApp('payroll', [KEY, OLD_KEY]));

    const sealedWithOld = await firstRound(before);
    expect(await refusalOf(nextRound(foreignDuring, sealedWithOld))).toMatchObject({ code: -32602, message: expect.stringContaining('integrity check') });
    expect((await nextRound(during, sealedWithOld)).content[0].text).toBe('paid, approved by ada');

    const sealedWithNew = await firstRound(during);
    expect(await refusalOf(nextRound(foreignDuring, sealedWithNew))).toMatchObject({ code: -32602 });
    expect((await nextRound(during, sealedWithNew)).content[0].text).toBe('paid, approved by ada');
  });

  it('binds a mounted tool to the app that serves it: two front apps mounting the same app under the same namespace refuse each other', async () => {
    const inner = await makeApp('payments', [KEY]);
    const front = await connect(await makeApp('front-eu', [KEY], inner));
    const frontAgain = await connect(await makeApp('front-eu', [KEY], inner));
    const otherFront = await connect(await makeApp('front-us', [KEY], inner));

    const state = await firstRound(front, 'payments_pay');
    expect(await refusalOf(nextRound(otherFront, state, 'payments_pay'))).toMatchObject({ code: -32602, message: expect.stringContaining('integrity check') });
    expect((await nextRound(frontAgain, state, 'payments_pay')).content[0].text).toBe('paid, approved by ada');
  });
});
