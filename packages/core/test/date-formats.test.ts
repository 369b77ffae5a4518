import { compileSchemaValidator } from '@toolwright/core';

/**
 * `format: 'date'` and `'date-time'` accept only days that exist: `Date.parse` rolls 2025-02-30
 * over to March 2, and once let such a date through (ajv with ajv-formats, the SDK's default,
 * refuses it).
 */
describe('date formats', () => {
  const date = compileSchemaValidator({ type: 'string', format: 'date' });
  const dateTime = compileSchemaValidator({ type: 'string', format: 'date-time' });

  it.each(['2024-02-29', '2000-02-29', '0000-02-29', '2025-12-31', '2025-01-01'])('%s is a date', (value) => {
    expect(date(value).ok).toBe(true);
    expect(dateTime(`${value}T10:00:00Z`).ok).toBe(true);
  });

  it.each(['2025-02-29', '2025-02-30', '2025-04-31', '1900-02-29', '2025-13-01', '2025-00-10', '2025-01-00', '2025-01-32'])('%s is not', (value) => {
    expect(date(value).ok).toBe(false);
    expect(dateTime(`${value}T10:00:00Z`).ok).toBe(false);
  });

  it.each(['1990-12-31T23:59:60Z', '1990-12-31T15:59:60-08:00', '2016-12-31T23:59:60.5Z'])('%s, a leap second, is a date-time', (value) => {
    expect(dateTime(value).ok).toBe(true);
  });

  it.each(['2024-01-01T24:00:00Z', '2024-01-01T23:60:00Z', '2024-01-01T23:59:61Z', '2024-01-01T10:00:00+24:00'])('%s, out of the clock, is not a date-time', (value) => {
    expect(dateTime(value).ok).toBe(false);
  });

  it.each([
    ['10:30', true],
    ['23:59:60Z', true],
    ['10:30:00.5+05:30', true],
    ['99:99', false],
    ['24:00', false],
    ['24:61:61Z', false],
  ])('time %s: %s', (value, ok) => {
    expect(compileSchemaValidator({ type: 'string', format: 'time' })(value).ok).toBe(ok);
  });
});
