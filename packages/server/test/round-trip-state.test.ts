import { CallInterrupt } from '@toolwright/core';
import { InputRound, type InputRequest } from '../src/roundtrip/InputRound';
import { MemoryUsedStateStore } from '../src/roundtrip/MemoryUsedStateStore';
import { RequestStateCodec, type RoundState } from '../src/roundtrip/RequestStateCodec';
import { roundCaller } from '../src/roundtrip/roundCaller';
import { RoundTripError } from '../src/roundtrip/RoundTripError';
import { roundBinding, runRound, type InputRequiredAnswer } from '../src/roundtrip/runRound';

const KEY_A = 'a'.repeat(32);
const KEY_B = 'b'.repeat(40);
const STATE: RoundState = { answers: { 'elicit-1': ['x1', { action: 'accept', content: { name: 'Ada' } }] }, asked: { 'sample-2': 'y2' } };
const BINDING = 'tools/call\nbook\n{"city":"Paris"}\nclient-1';
/** The app that issues the states (its serverInfo name). */
const APP = 'bookings';

describe('RequestStateCodec', () => {
  it('opens what it sealed, for the same request and caller', async () => {
    const codec = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const token = await codec.seal(STATE, BINDING);
    expect(await codec.open(token, BINDING)).toEqual({ ...STATE, acceptedOnce: true });
  });

  it('refuses a modified state and a state of another request or caller', async () => {
    const codec = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const token = await codec.seal(STATE, BINDING);
    const [version, payload] = token.split('.');
    const bytes = Buffer.from(payload, 'base64url');
    for (const at of [0, 12, 20, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[at] ^= 1;
      await expect(codec.open(`${version}.${flipped.toString('base64url')}`, BINDING)).rejects.toThrow(/integrity check/);
    }
    await expect(codec.open(`${token}-TAMPERED`, BINDING)).rejects.toThrow(RoundTripError);
    await expect(codec.open(token, BINDING.replace('Paris', 'Rome'))).rejects.toThrow(/another request or caller/);
    await expect(codec.open(token, BINDING.replace('client-1', 'client-2'))).rejects.toThrow(/another request or caller/);
    await expect(codec.open('not a state', BINDING)).rejects.toThrow(/not a state this server issued/);
    await expect(codec.open('v2.AAAA', BINDING)).rejects.toThrow(/not a state this server issued/);
    await expect(codec.open(42, BINDING)).rejects.toThrow(/must be the string/);
    expect(await codec.open(token, BINDING)).toEqual({ ...STATE, acceptedOnce: true });
  });

  it('refuses a state that is not exactly the base64url it issued: a character added, padding, base64, whitespace', async () => {
    const codec = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const copies = async (edit: (payload: string, bytes: Buffer) => string) => {
      const token = await codec.seal(STATE, BINDING);
      const payload = token.slice(3);
      return `v2.${edit(payload, Buffer.from(payload, 'base64url'))}`;
    };
    // Most of them decode to the very bytes of a state the server issued (Node's decoder skips what it cannot use).
    for (const edit of [
      (p: string) => `${p}A`,
      (p: string) => `${p}=`,
      (p: string) => `${p.slice(0, 8)} \n${p.slice(8)}`,
      (p: string) => `${p}!!`,
      (_: string, bytes: Buffer) => `${bytes.toString('base64')}${bytes.length % 3 === 0 ? '=' : ''}`,
    ]) {
      const copy = await copies(edit);
      await expect(codec.open(copy, BINDING)).rejects.toThrow(RoundTripError);
    }
    // A payload whose length leaves spare bits in its last character: another character with the same 6 bits' worth of bytes.
    const spare = await copies((p) => p);
    const [version, payload] = spare.split('.');
    const twin = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']
      .map((c) => `${payload.slice(0, -1)}${c}`)
      .find((p) => p !== payload && Buffer.from(p, 'base64url').equals(Buffer.from(payload, 'base64url')));
    if (twin) await expect(codec.open(`${version}.${twin}`, BINDING)).rejects.toThrow(/not a state this server issued/);
    expect(await codec.open(spare, BINDING)).toEqual({ ...STATE, acceptedOnce: true });
  });

  it('encrypts the state: the answers it carries cannot be read from it, and each seal differs', async () => {
    const codec = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const token = await codec.seal(STATE, BINDING);
    const decoded = token
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join('');
    expect(`${token}${decoded}`).not.toMatch(/Ada|accept|elicit-1/);
    expect(await codec.seal(STATE, BINDING)).not.toBe(token);
  });

  it('binds the caller by client and subject (roundCaller)', () => {
    const alice = { token: 't1', clientId: 'app', scopes: [], extra: { sub: 'alice' } };
    expect(roundCaller({ ...alice, token: 'refreshed' })).toBe(roundCaller(alice));
    expect(roundCaller({ ...alice, extra: { sub: 'bob' } })).not.toBe(roundCaller(alice));
    expect(roundCaller({ ...alice, clientId: 'other' })).not.toBe(roundCaller(alice));
    // No subject: the token tells callers apart.
    expect(roundCaller({ ...alice, extra: {} })).not.toBe(roundCaller({ ...alice, token: 't2', extra: {} }));
    expect(roundCaller({ ...alice, extra: { sub: 42 } })).not.toBe(roundCaller({ ...alice, token: 't2', extra: { sub: 42 } }));
    expect(roundCaller(undefined)).toBeUndefined();
  });

  it("takes a cluster's shared used-state store, unless the app named its own", async () => {
    const shared = new Set<string>();
    const store = { shared: true as const, claim: (id: string) => !shared.has(id) && Boolean(shared.add(id)) };
    const a = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const b = new RequestStateCodec({ keys: [KEY_A] }, APP);
    expect(a.shareUsedStates(store)).toBe(true);
    expect(b.shareUsedStates(store)).toBe(true);
    const token = await a.seal(STATE, BINDING);
    // Claimed in the shared store, a state another instance issued is accepted once by them all.
    expect(await b.open(token, BINDING)).toMatchObject({ acceptedOnce: true });
    await expect(a.open(token, BINDING)).rejects.toThrow(/already used/);
    const own = new RequestStateCodec({ keys: [KEY_A], usedStates: { claim: () => true } }, APP);
    expect(own.shareUsedStates(store)).toBe(false);
  });

  it('counts a state as accepted once in a store of its own (no `shared` flag) only when this codec issued it', async () => {
    const storeOf = () => {
      const claimed = new Set<string>();
      return { claim: (id: string) => !claimed.has(id) && Boolean(claimed.add(id)) };
    };
    const a = new RequestStateCodec({ keys: [KEY_A], usedStates: storeOf() }, APP);
    const b = new RequestStateCodec({ keys: [KEY_A], usedStates: storeOf() }, APP);
    const token = await a.seal(STATE, BINDING);
    // b could be one of many instances that each accept it once: its runs are not one call.
    expect(await b.open(token, BINDING)).toMatchObject({ acceptedOnce: false });
    expect(await a.open(token, BINDING)).toMatchObject({ acceptedOnce: true });
  });

  it('gives a store of its own bare UUIDs as ids (a store keyed by a uuid column takes them), and still tells the states it issued', async () => {
    const ids: string[] = [];
    const store = { claim: (id: string) => ids.push(id) > 0 };
    const a = new RequestStateCodec({ keys: [KEY_A], usedStates: store }, APP);
    const b = new RequestStateCodec({ keys: [KEY_A], usedStates: store }, APP);
    expect(await a.open(await a.seal(STATE, BINDING), BINDING)).toMatchObject({ acceptedOnce: true });
    expect(await a.open(await a.seal(STATE, BINDING), BINDING)).toMatchObject({ acceptedOnce: true });
    expect(await b.open(await a.seal(STATE, BINDING), BINDING)).toMatchObject({ acceptedOnce: false });
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // A state sealed for a shared store (as an instance of an earlier release sealed them all) carries no issuer: issued elsewhere.
    const earlier = new RequestStateCodec({ keys: [KEY_A], usedStates: { shared: true, claim: () => true } }, APP);
    expect(await a.open(await earlier.seal(STATE, BINDING), BINDING)).toMatchObject({ acceptedOnce: false });
  });

  it('accepts a state once (a replay is refused)', async () => {
    const codec = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const token = await codec.seal(STATE, BINDING);
    await codec.open(token, BINDING);
    await expect(codec.open(token, BINDING)).rejects.toThrow(/already used/);
  });

  it('holds only the rounds in flight in this process: an answered state leaves nothing behind and is still refused when replayed', async () => {
    const store = new MemoryUsedStateStore();
    const codec = new RequestStateCodec({ keys: [KEY_A], usedStates: store }, APP);
    const tokens = await Promise.all(Array.from({ length: 50 }, () => codec.seal(STATE, BINDING)));
    expect(store.size).toBe(50);
    for (const token of tokens) await codec.open(token, BINDING);
    expect(store.size).toBe(0);
    await expect(codec.open(tokens[7], BINDING)).rejects.toThrow(/already used/);
    // Another instance's state (same app, same keys) is accepted once here too, and remembered until it expires.
    // (Only here, as far as this process knows: a third instance with a store of its own would accept it as well.)
    const elsewhere = await new RequestStateCodec({ keys: [KEY_A] }, APP).seal(STATE, BINDING);
    expect(await codec.open(elsewhere, BINDING)).toMatchObject({ acceptedOnce: false });
    await expect(codec.open(elsewhere, BINDING)).rejects.toThrow(/already used/);
    expect(store.size).toBe(1);
  });

  it('forgets the states nobody answered, and those claimed from elsewhere, once they expire', () => {
    const store = new MemoryUsedStateStore();
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const unanswered = Array.from({ length: 10 }, (_, i) => store.issue(now + 1000 + i));
      expect(store.claim('from-another-instance', now + 1000)).toBe(true);
      expect(store.claim('from-another-instance', now + 1000)).toBe(false);
      expect(store.claim(`${unanswered[0]}0`, now + 1000)).toBe(false);
      clock.mockReturnValue(now + 1005);
      expect(store.issue(now + 2005)).not.toBe(unanswered[9]);
      // The four of the ten still valid stay, with the one just issued; the foreign id has expired.
      expect(store.size).toBe(4 + 1);
      expect(store.claim(unanswered[9], now + 1009)).toBe(true);
      clock.mockReturnValue(now + 3000);
      expect(store.claim('from-another-instance', now + 4000)).toBe(true);
      expect(store.size).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });

  it('refuses an expired state', async () => {
    const codec = new RequestStateCodec({ keys: [KEY_A], ttlMs: 1 }, APP);
    const sealedAt = Date.now();
    const token = await codec.seal(STATE, BINDING);
    // The clock moves past the 1 ms ttl (the codec reads Date.now).
    const clock = jest.spyOn(Date, 'now').mockReturnValue(sealedAt + 1000);
    try {
      await expect(codec.open(token, BINDING)).rejects.toThrow(/expired/);
    } finally {
      clock.mockRestore();
    }
  });

  it("binds the state to the app that issued it: another app's codec with the same keys refuses it, another instance of the app opens it", async () => {
    const issued = await new RequestStateCodec({ keys: [KEY_A] }, APP).seal(STATE, BINDING);
    for (const other of ['invoices', 'Bookings', 'bookings ', '', `${APP}\ntools/call`]) {
      await expect(new RequestStateCodec({ keys: [KEY_A] }, other).open(issued, BINDING)).rejects.toThrow(/integrity check: .*issued by another server/);
    }
    // A name cannot pass for another name followed by part of the binding.
    const shifted = await new RequestStateCodec({ keys: [KEY_A] }, `${APP}\ntools/call`).seal(STATE, 'book\n{}\n');
    await expect(new RequestStateCodec({ keys: [KEY_A] }, APP).open(shifted, 'tools/call\nbook\n{}\n')).rejects.toThrow(/integrity check/);
    expect(await new RequestStateCodec({ keys: [KEY_B, KEY_A] }, APP).open(issued, BINDING)).toEqual({ ...STATE, acceptedOnce: false });
  });

  it('rotates keys: the first signs, every one verifies, a dropped key no longer does', async () => {
    const before = new RequestStateCodec({ keys: [KEY_A] }, APP);
    const during = new RequestStateCodec({ keys: [KEY_B, KEY_A] }, APP);
    const after = new RequestStateCodec({ keys: [KEY_B] }, APP);
    expect(await during.open(await before.seal(STATE, BINDING), BINDING)).toEqual({ ...STATE, acceptedOnce: false });
    expect(await after.open(await during.seal(STATE, BINDING), BINDING)).toEqual({ ...STATE, acceptedOnce: false });
    await expect(after.open(await before.seal(STATE, BINDING), BINDING)).rejects.toThrow(/integrity check/);
  });

  it('says how to fix a short key, an empty key list or a bad ttl; without keys it makes one per process', async () => {
    expect(() => new RequestStateCodec({ keys: ['short'] }, APP)).toThrow('requestState.keys[0] has 5 bytes; a key needs at least 32');
    expect(() => new RequestStateCodec({ keys: [] }, APP)).toThrow(/requestState.keys is empty/);
    expect(() => new RequestStateCodec({ ttlMs: 0 }, APP)).toThrow(/ttlMs must be a positive number/);
    const one = new RequestStateCodec(undefined, APP);
    const other = new RequestStateCodec(undefined, APP);
    const token = await one.seal(STATE, BINDING);
    await expect(other.open(token, BINDING)).rejects.toThrow(/integrity check/);
    expect(await one.open(token, BINDING)).toEqual({ ...STATE, acceptedOnce: true });
  });
});

const NAME_FORM: InputRequest = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};
const SAMPLE: InputRequest = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 } };
const ACCEPT = { action: 'accept', content: { name: 'Ada' } };
const REPLY = { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' };

/** Runs `body` against a round the way the server does: the method may be interrupted, then the round ends. */
async function runBody(round: InputRound, body: () => Promise<unknown>) {
  const outcome = await body().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { outcome, pending: round.end() };
}

describe('InputRound', () => {
  const twoQuestions = (round: InputRound) => () => Promise.all([Promise.resolve().then(() => round.resolve(NAME_FORM)), Promise.resolve().then(() => round.resolve(SAMPLE))]);

  it('asks every question the method reaches before it settles, keyed by position or by the given key', async () => {
    const round = new InputRound(undefined, undefined);
    const { outcome, pending } = await runBody(round, twoQuestions(round));
    expect(CallInterrupt.is((outcome as { error: unknown }).error)).toBe(true);
    expect(pending?.inputRequests).toEqual({ 'elicit-1': NAME_FORM, 'sample-2': SAMPLE });

    const named = new InputRound(undefined, undefined);
    expect(() => named.resolve(NAME_FORM, 'user_name')).toThrow(CallInterrupt);
    expect(Object.keys(named.end()!.inputRequests)).toEqual(['user_name']);
  });

  it('answers from the responses to the questions it asked, then from the state, over several rounds', async () => {
    const first = new InputRound(undefined, undefined);
    const r1 = await runBody(first, async () => first.resolve(NAME_FORM));
    // The client answers, and adds a key nobody asked for: it is ignored.
    const second = new InputRound(r1.pending!.state, { 'elicit-1': ACCEPT, extra: { action: 'accept' } });
    const r2 = await runBody(second, async () => [second.resolve(NAME_FORM), second.resolve(SAMPLE)]);
    expect(r2.pending?.inputRequests).toEqual({ 'sample-2': SAMPLE });
    const third = new InputRound(r2.pending!.state, { 'sample-2': REPLY });
    const r3 = await runBody(third, async () => [third.resolve(NAME_FORM), third.resolve(SAMPLE)]);
    expect(r3.outcome).toEqual({ value: [ACCEPT, REPLY] });
    expect(r3.pending).toBeUndefined();
  });

  it('asks again when the answer is missing or the method now asks something else', async () => {
    const first = new InputRound(undefined, undefined);
    const { pending } = await runBody(first, async () => first.resolve(NAME_FORM));
    const missing = new InputRound(pending!.state, { wrong_key: ACCEPT });
    expect(() => missing.resolve(NAME_FORM)).toThrow(CallInterrupt);
    const changed = new InputRound(pending!.state, { 'elicit-1': ACCEPT });
    const other = { ...NAME_FORM, params: { ...NAME_FORM.params, message: 'Surname?' } };
    expect(() => changed.resolve(other)).toThrow(CallInterrupt);
    expect(changed.end()?.inputRequests).toEqual({ 'elicit-1': other });
  });

  it('takes the responses the SDK takes (null content, several blocks when tools were offered) and refuses what its schemas refuse', async () => {
    const ask = (request: InputRequest, response: unknown) => {
      const first = new InputRound(undefined, undefined);
      expect(() => first.resolve(request)).toThrow(CallInterrupt);
      return () => new InputRound(first.end()!.state, { [Object.keys(first.end()!.inputRequests)[0]]: response }).resolve(request);
    };
    // The SDK's parse: a null content reads as none, as a 2025-era client's response does.
    expect(ask(NAME_FORM, { action: 'decline', content: null })()).toEqual({ action: 'decline' });
    const withTools: InputRequest = { method: 'sampling/createMessage', params: { ...SAMPLE.params, tools: [{ name: 't', inputSchema: { type: 'object' } }] } };
    const blocks = { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'a' }] };
    expect(ask(withTools, blocks)()).toEqual(blocks);
    expect(ask(SAMPLE, blocks)).toThrow("inputResponses['sample-1'] is not a valid sampling/createMessage result: content may be an array of blocks only when the request offered tools.");
    expect(ask(NAME_FORM, { action: 'accept', content: { name: { first: 'Ada' } } })).toThrow('content.name must be a string, a number, a boolean or an array of strings');
    expect(ask({ method: 'roots/list' }, { roots: [{ uri: 'https://example.com/' }] })).toThrow("roots[0].uri must be a string that starts with 'file://'");
    expect(ask({ method: 'roots/list' }, { roots: [{ uri: 'file:///w', name: 5 }] })).toThrow(
      'is not a valid roots/list result: roots[0].name does not match the roots/list result of the MCP schema (Invalid input: expected string, received number).',
    );
  });

  it('refuses a response of the wrong shape with a message naming the key', async () => {
    const first = new InputRound(undefined, undefined);
    const { pending } = await runBody(first, async () => [first.resolve(NAME_FORM)]);
    expect(() => new InputRound(pending!.state, { 'elicit-1': { action: 'maybe' } }).resolve(NAME_FORM)).toThrow(
      "inputResponses['elicit-1'] is not a valid elicitation/create result: action must be 'accept', 'decline' or 'cancel'.",
    );
    const round = new InputRound(pending!.state, { 'elicit-1': 'yes' });
    expect(() => round.resolve(NAME_FORM)).toThrow(CallInterrupt);
    expect(round.refused).toBeInstanceOf(RoundTripError);
  });
});

describe('runRound', () => {
  const codec = new RequestStateCodec({ keys: [KEY_A] }, APP);
  const binding = roundBinding('tools/call', 'greet', { b: 2, a: 1 }, 'client-1');
  let runs = 0;
  /** A method that asks a name and a reply together, then the roots, then answers. */
  const method = async (round: InputRound) => {
    runs++;
    const [name, reply] = await Promise.all([Promise.resolve().then(() => round.resolve(NAME_FORM)), Promise.resolve().then(() => round.resolve(SAMPLE))]);
    const roots = round.resolve({ method: 'roots/list' }) as { roots: { uri: string }[] };
    return `${(name as typeof ACCEPT).content.name} / ${(reply as typeof REPLY).content.text} / ${roots.roots[0].uri}`;
  };

  it('runs the method once per round, two questions in the first, one in the second, then the result', async () => {
    runs = 0;
    const r1 = (await runRound(codec, {}, binding, method)) as InputRequiredAnswer;
    expect(r1.resultType).toBe('input_required');
    expect(Object.keys(r1.inputRequests)).toEqual(['elicit-1', 'sample-2']);
    const r2 = (await runRound(codec, { requestState: r1.requestState, inputResponses: { 'elicit-1': ACCEPT, 'sample-2': REPLY } }, binding, method)) as InputRequiredAnswer;
    expect(r2.inputRequests).toEqual({ 'roots-3': { method: 'roots/list' } });
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await runRound(codec, { requestState: r2.requestState, inputResponses: { 'roots-3': { roots: [{ uri: 'file:///w' }] } } }, binding, method);
    expect(r3).toBe('Ada / Hello / file:///w');
    expect(runs).toBe(3);
  });

  it('binds the state to the arguments in any key order, and refuses it for other arguments, a replay or a tampered copy', async () => {
    const r1 = (await runRound(codec, {}, binding, method)) as InputRequiredAnswer;
    const sameArgs = roundBinding('tools/call', 'greet', { a: 1, b: 2 }, 'client-1');
    const answers = { 'elicit-1': ACCEPT, 'sample-2': REPLY };
    await expect(runRound(codec, { requestState: r1.requestState, inputResponses: answers }, roundBinding('tools/call', 'greet', { a: 9, b: 2 }, 'client-1'), method)).rejects.toThrow(
      /integrity check/,
    );
    await expect(runRound(codec, { requestState: `${r1.requestState}-TAMPERED`, inputResponses: answers }, sameArgs, method)).rejects.toThrow(RoundTripError);
    await runRound(codec, { requestState: r1.requestState, inputResponses: answers }, sameArgs, method);
    await expect(runRound(codec, { requestState: r1.requestState, inputResponses: answers }, sameArgs, method)).rejects.toThrow(/already used/);
  });

  it('refuses an answer of the wrong shape with a RoundTripError (-32602), also when the method catches its interrupt', async () => {
    const r1 = (await runRound(codec, {}, binding, method)) as InputRequiredAnswer;
    const bad = { 'elicit-1': { action: 'maybe' }, 'sample-2': REPLY };
    await expect(runRound(codec, { requestState: r1.requestState, inputResponses: bad }, binding, method)).rejects.toThrow(
      new RoundTripError(
        "inputResponses['elicit-1'] is not a valid elicitation/create result: action must be 'accept', 'decline' or 'cancel'. Its requestState is used up: start the call again without requestState.",
      ),
    );
    // An app that catches everything, and one that turns the interrupt into an error of its own.
    const swallowing = async (round: InputRound) => {
      try {
        round.resolve(NAME_FORM);
      } catch {
        return 'caught';
      }
      return 'answered';
    };
    const rethrowing = async (round: InputRound) => {
      try {
        return round.resolve(NAME_FORM);
      } catch {
        throw new Error('something of the app');
      }
    };
    for (const body of [swallowing, rethrowing]) {
      const first = (await runRound(codec, {}, binding, swallowing)) as InputRequiredAnswer;
      await expect(runRound(codec, { requestState: first.requestState, inputResponses: { 'elicit-1': 'yes' } }, binding, body)).rejects.toThrow(RoundTripError);
    }
  });

  it('refuses inputResponses that are not an object', async () => {
    await expect(runRound(codec, { inputResponses: null }, binding, method)).rejects.toThrow('inputResponses must be an object');
    await expect(runRound(codec, { inputResponses: [1] }, binding, method)).rejects.toThrow(RoundTripError);
  });

  it('answers with the protocol error an interrupt carries, and asks the question of a method that swallowed the interrupt', async () => {
    const refusal = new Error('needs sampling');
    await expect(
      runRound(codec, {}, binding, async () => {
        throw new CallInterrupt('no sampling', { cause: refusal });
      }),
    ).rejects.toBe(refusal);
    const swallowed = await runRound(codec, {}, binding, async (round) => {
      try {
        round.resolve(NAME_FORM);
      } catch {
        // an app that catches everything
      }
      return 'result of a method that caught it';
    });
    expect((swallowed as InputRequiredAnswer).inputRequests).toEqual({ 'elicit-1': NAME_FORM });
    await expect(
      runRound(codec, {}, binding, async () => {
        throw new CallInterrupt('by hand');
      }),
    ).rejects.toThrow(/without asking the client anything/);
  });
});
