import 'reflect-metadata';
import { Param, Prompt, Resource } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

const CITIES = ['Paris', 'Partille', 'Prague', 'Porto', 'Tokyo'];
const MANY = Array.from({ length: 250 }, (_, i) => `item${i}`);

class TravelPrompts {
  @Prompt({ description: 'Plan a trip.' })
  plan(
    @Param('city', { complete: (typed) => CITIES.filter((c) => c.toLowerCase().startsWith(typed.toLowerCase())) }) city: string,
    @Param('mode', { enum: ['train', 'plane', 'tram'] }) mode: string,
    @Param('district', { complete: (typed, { arguments: args }) => [`${args.city ?? '?'}-${typed}1`, `${args.city ?? '?'}-${typed}2`] }) district: string,
    @Param('note', { optional: true }) note: string,
  ) {
    return `${city} ${mode} ${district} ${note}`;
  }

  @Prompt({ description: 'Pick an item.' })
  pick(
    @Param('item', { complete: () => MANY }) item: string,
    @Param('exact', { complete: async () => ({ values: ['a', 'b'], total: 1000, hasMore: true }) }) exact: string,
    @Param('fails', {
      complete: () => {
        throw new Error('db down: postgres://secret');
      },
    })
    fails: string,
  ) {
    return item + exact + fails;
  }

  @Resource('city://{name}/weather{?metric}')
  weather(@Param('name', { complete: (typed) => CITIES.filter((c) => c.startsWith(typed)) }) name: string, @Param('metric', { optional: true, type: () => Boolean }) metric: boolean) {
    return `${name}:${metric}`;
  }
}

describe('completions through a real SDK client (in memory)', () => {
  let client: Client;
  let stderr: jest.SpyInstance;

  beforeAll(async () => {
    client = await createTestClient(await createApp({ name: 'travel', version: '1.0.0', tools: [TravelPrompts] }));
  });
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());
  afterAll(() => client.close());

  const prompt = (name: string, argument: string, value: string, context?: Record<string, string>) =>
    client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value }, ...(context && { context: { arguments: context } }) });

  it('completes a prompt argument with its provider', async () => {
    expect(await prompt('plan', 'city', 'pa')).toEqual({ completion: { values: ['Paris', 'Partille'] } });
  });

  it('completes enum arguments from their values without a provider', async () => {
    expect(await prompt('plan', 'mode', 'tr')).toEqual({ completion: { values: ['train', 'tram'] } });
  });

  it('passes the context arguments to the provider', async () => {
    expect(await prompt('plan', 'district', 'x', { city: 'Paris' })).toEqual({ completion: { values: ['Paris-x1', 'Paris-x2'] } });
  });

  it('answers an argument without a provider with no values', async () => {
    expect(await prompt('plan', 'note', 'a')).toEqual({ completion: { values: [] } });
  });

  it('keeps at most 100 values and says how many there are', async () => {
    const { completion } = await prompt('pick', 'item', '');
    expect(completion.values).toHaveLength(100);
    expect(completion.values[99]).toBe('item99');
    expect(completion).toMatchObject({ total: 250, hasMore: true });
    expect(await prompt('pick', 'exact', '')).toEqual({ completion: { values: ['a', 'b'], total: 1000, hasMore: true } });
  });

  it('completes resource-template variables, booleans included', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'city://{name}/weather{?metric}' };
    expect(await client.complete({ ref, argument: { name: 'name', value: 'P' } })).toEqual({ completion: { values: ['Paris', 'Partille', 'Prague', 'Porto'] } });
    expect(await client.complete({ ref, argument: { name: 'metric', value: 't' } })).toEqual({ completion: { values: ['true'] } });
  });

  it('answers an unknown prompt or template with -32602', async () => {
    await expect(prompt('nope', 'x', '')).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt 'nope'") });
    await expect(client.complete({ ref: { type: 'ref/resource', uri: 'x://{y}' }, argument: { name: 'y', value: '' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown resource template 'x://{y}'"),
    });
  });

  it('hides a failing provider behind -32603 and logs it', async () => {
    const error = await prompt('pick', 'fails', '').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32603 });
    expect(JSON.stringify(error)).not.toContain('secret');
    expect(stderr.mock.calls.join('')).toContain('postgres://secret');
  });
});
