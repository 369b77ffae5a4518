import { Args, buildRegistry, compileSchemaValidator, Param, Property, Tool, type Class } from '@toolwright/core';
import { compiledRegistry } from '@toolwright/core/internal';
import { IsDateString, IsIP, IsISO8601, IsOptional, IsRFC3339, isISO8601 } from 'class-validator';
import { FORMAT_CHECKS, formatRefusal } from '../src/validation/formats';

/** A refused format says the form it expects, with an example, and what arrived. */

async function call(cls: Class, tool: string, args: Record<string, unknown>): Promise<{ isError?: boolean; text: string; result: unknown }> {
  const registry = compiledRegistry(buildRegistry({ tools: [cls] as never }));
  const result = await registry.tool(tool)!.call(args, undefined);
  return { isError: result.isError, text: (result.content[0] as { text: string }).text, result };
}

function inputSchemaOf(cls: Class, tool: string): Record<string, unknown> {
  return buildRegistry({ tools: [cls] as never }).toolList.tools.find((t) => t.name === tool)!.inputSchema as Record<string, unknown>;
}

describe('format messages', () => {
  it.each(Object.keys(FORMAT_CHECKS))('%s: the message names the form with an example that passes the check', (format) => {
    const message = formatRefusal([format], 'x');
    expect(message).toMatch(/^must be an? .+, such as \S+ \(got "x"\)$/);
    expect(message).not.toContain('valid');
    const example = /such as (\S+) \(got/.exec(message)![1];
    expect(FORMAT_CHECKS[format](example)).toBe(true);
  });

  it('gives the exact messages', () => {
    const refusal = (format: string, value: unknown) => {
      const outcome = compileSchemaValidator({ type: 'string', format })(value);
      return outcome.ok ? undefined : outcome.issues[0].message;
    };
    expect(refusal('date-time', '2024-01-01')).toBe('must be a date-time in RFC 3339 form, such as 2024-01-01T09:30:00Z (got "2024-01-01")');
    expect(refusal('date', '01/02/2024')).toBe('must be a date in RFC 3339 form, such as 2024-01-01 (got "01/02/2024")');
    expect(refusal('time', '9.30')).toBe('must be a time in RFC 3339 form, such as 09:30:00Z (got "9.30")');
    expect(refusal('email', 'ada')).toBe('must be an email address, such as ada@example.com (got "ada")');
    expect(refusal('uri', 'example.com')).toBe('must be a URI with a scheme, such as https://example.com/page (got "example.com")');
    expect(refusal('url', 'example.com')).toBe('must be a URL with a scheme, such as https://example.com/page (got "example.com")');
    expect(refusal('uuid', '123')).toBe('must be a UUID, such as 123e4567-e89b-12d3-a456-426614174000 (got "123")');
    expect(refusal('ipv4', '1.2.3')).toBe('must be an IPv4 address, such as 192.0.2.1 (got "1.2.3")');
    expect(refusal('ipv6', 'zz')).toBe('must be an IPv6 address, such as 2001:db8::1 (got "zz")');
    expect(refusal('hostname', 'a b')).toBe('must be a hostname, such as example.com (got "a b")');
    // A long value is cut, not echoed whole.
    expect(refusal('email', 'x'.repeat(100))).toBe(`must be an email address, such as ada@example.com (got "${'x'.repeat(40)}…")`);
    // A format Toolwright does not check is an annotation, even one named like an Object.prototype member.
    expect(refusal('constructor', 'anything')).toBeUndefined();
    expect(refusal('phone', 'anything')).toBeUndefined();
    // Other values are the type check's business.
    expect(refusal('date', 5)).toBe('must be a string (got number 5)');
  });

  it('names every form of an anyOf of formats in one message', () => {
    const validate = compileSchemaValidator({ type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] });
    expect(validate('192.0.2.1').ok).toBe(true);
    expect(validate('2001:db8::1').ok).toBe(true);
    expect(validate('host')).toEqual({
      ok: false,
      issues: [{ path: '', message: 'must be an IPv4 address, such as 192.0.2.1, or an IPv6 address, such as 2001:db8::1 (got "host")' }],
    });
    // A format-only branch lets other values through, as JSON Schema says: the type refuses them.
    expect(compileSchemaValidator({ anyOf: [{ format: 'date' }, { format: 'date-time' }] })(5).ok).toBe(true);
  });
});

describe('a Date parameter', () => {
  class Calendar {
    @Tool() book(@Param('when') when: Date) {
      return when.toISOString();
    }
    @Tool() day(@Param('on', { format: 'date' }) on: Date) {
      return on.toISOString();
    }
  }

  it('refuses a date alone, saying the form it expects', async () => {
    expect(await call(Calendar, 'book', { when: '2024-01-01' })).toMatchObject({
      isError: true,
      text: 'Invalid arguments for tool \'book\':\n- when: must be a date-time in RFC 3339 form, such as 2024-01-01T09:30:00Z (got "2024-01-01")',
    });
    expect(await call(Calendar, 'book', { when: '2024-01-01T09:30:00Z' })).toMatchObject({ text: '2024-01-01T09:30:00.000Z' });
  });

  it("takes a date alone with format: 'date'", async () => {
    expect(inputSchemaOf(Calendar, 'day').properties).toEqual({ on: { type: 'string', format: 'date' } });
    expect(await call(Calendar, 'day', { on: '2024-01-01' })).toMatchObject({ text: '2024-01-01T00:00:00.000Z' });
    expect((await call(Calendar, 'day', { on: '2024-01-01T09:30:00Z' })).text).toContain('- on: must be a date in RFC 3339 form, such as 2024-01-01 (got "2024-01-01T09:30:00Z")');
  });
});

describe('@IsDateString() and @IsISO8601() on a DTO', () => {
  class Booking {
    @IsDateString() when!: string;
    @IsOptional() @IsISO8601() until?: string;
  }
  class Stamped {
    @IsRFC3339() at!: string;
  }
  class DayOnly {
    @Property({ schema: { type: 'string', format: 'date' } }) @IsDateString() on!: string;
  }
  class Tools {
    @Tool() book(@Args() input: Booking) {
      return input.when;
    }
    @Tool() stamp(@Args() input: Stamped) {
      return input.at;
    }
    @Tool() day(@Args() input: DayOnly) {
      return input.on;
    }
  }

  it('advertise a string, and leave the ISO 8601 check to class-validator', () => {
    const properties = inputSchemaOf(Tools, 'book').properties;
    expect(properties).toEqual({ when: { type: 'string' }, until: { type: 'string' } });
    expect(inputSchemaOf(Tools, 'stamp').properties).toEqual({ at: { type: 'string', format: 'date-time' } });
  });

  // What class-validator accepts, Toolwright accepts, and the other way round.
  it.each(['2024-01-01', '2024-01-01T09:30:00Z', '2024-01-01T09:30', '2024-01', '2024', '20240101', '2024-W01-1', '2024-001', '2024-01-01 09:30:00+02:00', 'yesterday', '01/02/2024', ''])(
    'decides %p as class-validator does',
    async (value) => {
      const outcome = await call(Tools, 'book', { when: value });
      expect(outcome.isError === true).toBe(!isISO8601(value));
      if (outcome.isError) expect(outcome.text).toContain('- when: when must be a valid ISO 8601 date string');
    },
  );

  it('keeps the form a @Property schema gives, and class-validator still checks', async () => {
    expect(inputSchemaOf(Tools, 'day').properties).toEqual({ on: { type: 'string', format: 'date' } });
    expect(await call(Tools, 'day', { on: '2024-01-01' })).toMatchObject({ text: '2024-01-01' });
    expect((await call(Tools, 'day', { on: '2024-01' })).text).toContain('- on: must be a date in RFC 3339 form, such as 2024-01-01 (got "2024-01")');
  });

  it('@IsRFC3339() keeps format date-time and its message', async () => {
    expect((await call(Tools, 'stamp', { at: '2024-01-01' })).text).toContain('- at: must be a date-time in RFC 3339 form, such as 2024-01-01T09:30:00Z (got "2024-01-01")');
  });
});

describe('@IsIP() on a DTO', () => {
  class Host {
    @IsIP() address!: string;
    @IsIP(undefined, { message: 'Give the IP address of the host, not "$value".' }) other!: string;
  }
  class Tools {
    @Tool() ping(@Args() input: Host) {
      return input.address;
    }
  }

  it('names both forms, and keeps the message the app gave', async () => {
    const { text } = await call(Tools, 'ping', { address: 'host', other: 'host' });
    expect(text).toContain('- address: must be an IPv4 address, such as 192.0.2.1, or an IPv6 address, such as 2001:db8::1 (got "host")');
    expect(text).toContain('- other: Give the IP address of the host, not "host".');
  });
});
