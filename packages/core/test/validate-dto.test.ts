import { Expose, Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsDate, IsDefined, IsInt, IsNumber, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { compileDtoValidator, UNKNOWN_PROPERTY_MESSAGE } from '../src/validation/validateDto';

class Item {
  @IsString() name!: string;
  @IsInt() @Min(1) qty!: number;
}

class Filters {
  @ArrayMaxSize(2) @IsString({ each: true }) tags!: string[];
  @IsOptional() @IsString() q?: string;
}

class Order {
  @IsString() id!: string;
  @IsDefined() @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
  @IsOptional() @ValidateNested() @Type(() => Filters) filters?: Filters;
  @IsOptional() @IsDate() @Type(() => Date) at?: Date;
}

const validOrder = () => ({
  id: 'o-1',
  items: [
    { name: 'apple', qty: 2 },
    { name: 'pear', qty: 1 },
  ],
  filters: { tags: ['fresh'] },
  at: '2024-05-01T10:00:00.000Z',
});

describe('compileDtoValidator: valid input', () => {
  const validate = compileDtoValidator(Order, { coerce: false });

  it('returns an instance of the class with nested instances and dates', async () => {
    const outcome = await validate(validOrder());
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const order = outcome.value as Order;
    expect(order).toBeInstanceOf(Order);
    expect(order.items.map((i) => i instanceof Item)).toEqual([true, true]);
    expect(order.items[1]).toEqual(Object.assign(new Item(), { name: 'pear', qty: 1 }));
    expect(order.filters).toBeInstanceOf(Filters);
    expect(order.at).toBeInstanceOf(Date);
    expect(order.at?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
  });

  it('accepts omitted optional properties', async () => {
    const outcome = await validate({ id: 'o-2', items: [] });
    expect(outcome.ok).toBe(true);
  });

  it('can be called many times (no state between calls)', async () => {
    const [a, b] = await Promise.all([validate(validOrder()), validate({ id: 1, items: [] })]);
    expect(a.ok).toBe(true);
    expect(b).toEqual({ ok: false, issues: [{ path: 'id', message: 'id must be a string' }] });
    expect((await validate(validOrder())).ok).toBe(true);
  });
});

describe('compileDtoValidator: invalid input', () => {
  const validate = compileDtoValidator(Order, { coerce: false });

  it('reports one issue per failed constraint, with dotted and indexed paths', async () => {
    const outcome = await validate({
      id: 'o-3',
      items: [
        { name: 'apple', qty: 1 },
        { name: 3, qty: 0 },
      ],
      filters: { tags: ['a', 'b', 7] },
      at: 'yesterday',
    });
    expect(outcome).toEqual({
      ok: false,
      issues: [
        { path: 'items[1].name', message: 'name must be a string' },
        { path: 'items[1].qty', message: 'qty must not be less than 1' },
        // class-validator reports `each` constraints on the array, not per element
        // (in class-validator's order: decorators apply bottom-up)
        { path: 'filters.tags', message: 'each value in tags must be a string' },
        { path: 'filters.tags', message: 'tags must contain no more than 2 elements' },
        { path: 'at', message: 'at must be a Date instance' },
      ],
    });
  });

  it('reports a missing required property and a non-object nested element', async () => {
    expect(await validate({ items: [{ name: 'a', qty: 1 }, 5] })).toEqual({
      ok: false,
      issues: [
        { path: 'id', message: 'id must be a string' },
        { path: 'items[1]', message: 'each value in nested property items must be either object or array' },
      ],
    });
  });

  it('rejects unknown properties at the root and in nested objects', async () => {
    const outcome = await validate({ ...validOrder(), admin: true, items: [{ name: 'a', qty: 1, price: 0 }], filters: { tags: [], sort: 'x' } });
    expect(outcome).toEqual({
      ok: false,
      issues: [
        { path: 'admin', message: UNKNOWN_PROPERTY_MESSAGE },
        { path: 'items[0].price', message: UNKNOWN_PROPERTY_MESSAGE },
        { path: 'filters.sort', message: UNKNOWN_PROPERTY_MESSAGE },
      ],
    });
    expect(UNKNOWN_PROPERTY_MESSAGE).toBe('is not allowed (unknown property)');
  });

  it.each([
    ['null', null, 'must be an object, got null'],
    ['an array', [1, 2], 'must be an object, got an array'],
    ['a string', 'hello', 'must be an object, got string'],
    ['a number', 5, 'must be an object, got number'],
    ['undefined', undefined, 'must be an object, got undefined'],
    ['a class instance', new Date(), 'must be an object, got an instance of a class'],
  ])('rejects %s at the root', async (_name, value, message) => {
    expect(await validate(value)).toEqual({ ok: false, issues: [{ path: '', message }] });
  });

  it('quotes keys that are not identifiers', async () => {
    expect(await validate({ ...validOrder(), 'x-y': 1 })).toEqual({ ok: false, issues: [{ path: '["x-y"]', message: UNKNOWN_PROPERTY_MESSAGE }] });
  });

  it('ignores a __proto__ key instead of letting it change the instance', async () => {
    const outcome = await validate(JSON.parse('{"id":"o","items":[],"__proto__":{"polluted":true}}'));
    expect(outcome.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('compileDtoValidator: coercion', () => {
  class Query {
    @IsNumber() limit!: number;
    @IsBoolean() exact!: boolean;
  }

  it('is off by default: a string is not a number', async () => {
    const validate = compileDtoValidator(Query, { coerce: false });
    expect(await validate({ limit: '5', exact: true })).toEqual({
      ok: false,
      issues: [{ path: 'limit', message: 'limit must be a number conforming to the specified constraints' }],
    });
  });

  it('with coerce: true converts to the reflected types first', async () => {
    const validate = compileDtoValidator(Query, { coerce: true });
    const outcome = await validate({ limit: '5', exact: true });
    expect(outcome).toEqual({ ok: true, value: Object.assign(new Query(), { limit: 5, exact: true }) });
  });

  it('with coerce: true builds nested classes from design:type even without @Type', async () => {
    class Inner {
      @IsInt() n!: number;
    }
    class Outer {
      @ValidateNested() inner!: Inner;
    }
    const outcome = await compileDtoValidator(Outer, { coerce: true })({ inner: { n: '3' } });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect((outcome.value as Outer).inner).toEqual(Object.assign(new Inner(), { n: 3 }));
  });
});

describe('compileDtoValidator: @Expose names', () => {
  it('reads the exposed key and reports issues under it', async () => {
    class Person {
      @Expose({ name: 'first_name' }) @IsString() firstName!: string;
    }
    const validate = compileDtoValidator(Person, { coerce: false });
    const ok = await validate({ first_name: 'Ada' });
    expect(ok.ok && (ok.value as Person).firstName).toBe('Ada');
    expect(await validate({ first_name: 1 })).toEqual({ ok: false, issues: [{ path: 'first_name', message: 'firstName must be a string' }] });
  });
});

describe('compileDtoValidator: a class without class-validator decorators', () => {
  it('rejects every object at the root (class-validator forbids unknown values)', async () => {
    class Plain {
      name?: string;
    }
    expect(await compileDtoValidator(Plain, { coerce: false })({ name: 'x' })).toEqual({
      ok: false,
      issues: [{ path: '', message: 'an unknown value was passed to the validate function' }],
    });
  });
});
