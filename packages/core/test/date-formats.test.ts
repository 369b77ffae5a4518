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
});
