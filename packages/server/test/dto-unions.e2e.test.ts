import 'reflect-metadata';
import { Args, Tool } from '@toolwright/core';
import { Allow, IsDefined, IsEmail, IsIn, IsNumber, IsOptional, IsString, Property, Type, ValidateNested } from '@toolwright/core/dto';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

abstract class Shape {}
class Circle extends Shape {
  @IsNumber() radius!: number;
  area() {
    return Math.PI * this.radius ** 2;
  }
}
class Square extends Shape {
  @IsNumber() side!: number;
  area() {
    return this.side ** 2;
  }
}
/** A subtype with a format check: this DTO needs class-transformer and class-validator (no fast path). */
class Contact {
  @IsIn(['email']) kind!: 'email';
  @IsEmail() address!: string;
}
class Phone {
  @IsIn(['phone']) kind!: 'phone';
  @IsString() number!: string;
}
const SHAPES = {
  discriminator: {
    property: 'kind',
    subTypes: [
      { name: 'circle', value: Circle },
      { name: 'square', value: Square },
    ],
  },
};

class DrawInput {
  @ValidateNested() @Type(() => Shape, SHAPES) shape!: Circle | Square;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Shape, SHAPES) more?: (Circle | Square)[];
  @Allow() @IsDefined() @Property({ description: 'A label or a number', schema: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'number' }] } }) label!: string | number;
}
class ReachInput {
  @ValidateNested()
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'email', value: Contact },
        { name: 'phone', value: Phone },
      ],
    },
    keepDiscriminatorProperty: true,
  })
  via!: Contact | Phone;
}

const seen: unknown[] = [];
class Drawing {
  @Tool() draw(@Args() input: DrawInput) {
    seen.push(input);
    return { kinds: [input.shape, ...(input.more ?? [])].map((s) => s.constructor.name), area: Math.round(input.shape.area()), label: input.label };
  }
  @Tool() reach(@Args() input: ReachInput) {
    seen.push(input);
    return { via: input.via.constructor.name, kind: input.via.kind };
  }
}

describe('issue 13: unions in DTOs through a real client', () => {
  let client: Client;
  beforeAll(async () => {
    client = await createTestClient(await createApp({ name: 'unions', version: '1.0.0', tools: [Drawing] }));
  });
  afterAll(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { text: string }[])[0].text;
    return { isError: result.isError === true, text, structured: result.isError ? undefined : JSON.parse(text) };
  };

  it('advertises a discriminated @Type as oneOf with a const discriminator, arrays of it, and a @Property schema union', async () => {
    const { tools } = await client.listTools();
    const draw = tools.find((t) => t.name === 'draw')!.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    const circle = { type: 'object', properties: { radius: { type: 'number' }, kind: { const: 'circle' } }, required: ['radius', 'kind'], additionalProperties: false };
    const square = { type: 'object', properties: { side: { type: 'number' }, kind: { const: 'square' } }, required: ['side', 'kind'], additionalProperties: false };
    expect(draw.properties.shape).toEqual({ oneOf: [circle, square] });
    expect(draw.properties.more).toEqual({ type: 'array', items: { oneOf: [circle, square] } });
    expect(draw.properties.label).toEqual({ anyOf: [{ type: 'string', maxLength: 5 }, { type: 'number' }], description: 'A label or a number' });
    expect(draw.required).toEqual(['shape', 'label']);
  });

  it('accepts a valid subtype and instantiates the subclass the discriminator names (regression: "shape.radius: is not allowed")', async () => {
    const out = await call('draw', {
      shape: { kind: 'circle', radius: 1 },
      more: [
        { kind: 'square', side: 2 },
        { kind: 'circle', radius: 3 },
      ],
      label: 7,
    });
    expect(out).toMatchObject({ isError: false, structured: { kinds: ['Circle', 'Square', 'Circle'], area: 3, label: 7 } });
    const input = seen.at(-1) as DrawInput;
    expect(input.shape).toBeInstanceOf(Circle);
    expect(input.shape).not.toHaveProperty('kind'); // as plainToInstance: the discriminator is dropped unless kept
  });

  it('refuses a wrong discriminator, a subtype field on the other subtype, and a label outside the union', async () => {
    expect((await call('draw', { shape: { kind: 'triangle', radius: 1 }, label: 'a' })).text).toContain('- shape.kind: must be one of: "circle", "square" (got "triangle")');
    const crossed = await call('draw', { shape: { kind: 'square', radius: 1 }, label: 'a' });
    expect(crossed.text).toContain('- shape.side: is required\n- shape.radius: is not allowed (unknown property)');
    const label = await call('draw', { shape: { kind: 'square', side: 1 }, label: 'too long' });
    expect(label).toMatchObject({ isError: true });
    expect(label.text).toContain('label: does not match any allowed shape');
  });

  it('keeps the discriminator when asked, and validates subtypes class-validator checks itself', async () => {
    expect((await call('reach', { via: { kind: 'email', address: 'a@b.co' } })).structured).toEqual({ via: 'Contact', kind: 'email' });
    expect((await call('reach', { via: { kind: 'phone', number: '123' } })).structured).toEqual({ via: 'Phone', kind: 'phone' });
    const bad = await call('reach', { via: { kind: 'email', address: 'nope' } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('- via.address: must be an email address, such as ada@example.com (got "nope")');
  });
});
