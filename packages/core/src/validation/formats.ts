import { startsWithCalendarDay } from './isCalendarDay';

/** Checks for the JSON Schema formats Toolwright emits. Deliberately simple, linear-time patterns. */
export const FORMAT_CHECKS: Readonly<Record<string, (value: string) => boolean>> = {
  email: isEmail,
  uri: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(v),
  url: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(v),
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  // Date.parse rolls a day that does not exist (2025-02-30) over to the next month: the day is checked on its own.
  // It knows no leap second (second 60, RFC 3339's own example is 1990-12-31T23:59:60Z): read as second 59.
  'date-time': (v) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d+)?)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/.test(v) &&
    !Number.isNaN(Date.parse(v.slice(17, 19) === '60' ? `${v.slice(0, 17)}59${v.slice(19)}` : v)) &&
    startsWithCalendarDay(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && startsWithCalendarDay(v),
  time: (v) => /^([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d+)?)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/.test(v),
  ipv4: (v) => /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(v),
  ipv6: (v) => v.includes(':') && /^[0-9A-Fa-f:.]+$/.test(v),
  hostname: (v) => /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(v),
};

/**
 * What each format expects, with an example, as the refusal says it: "must be a date-time in
 * RFC 3339 form, such as 2024-01-01T09:30:00Z". A model that sent `2024-01-01` learns the form
 * from the message alone.
 */
const FORMAT_EXPECTED: Readonly<Record<string, string>> = {
  email: 'an email address, such as ada@example.com',
  uri: 'a URI with a scheme, such as https://example.com/page',
  url: 'a URL with a scheme, such as https://example.com/page',
  uuid: 'a UUID, such as 123e4567-e89b-12d3-a456-426614174000',
  'date-time': 'a date-time in RFC 3339 form, such as 2024-01-01T09:30:00Z',
  date: 'a date in RFC 3339 form, such as 2024-01-01',
  time: 'a time in RFC 3339 form, such as 09:30:00Z',
  ipv4: 'an IPv4 address, such as 192.0.2.1',
  ipv6: 'an IPv6 address, such as 2001:db8::1',
  hostname: 'a hostname, such as example.com',
};

/** The check of a format Toolwright validates; undefined for any other (an annotation, as 2020-12 says). */
export function formatCheck(format: string): ((value: string) => boolean) | undefined {
  return Object.hasOwn(FORMAT_CHECKS, format) ? FORMAT_CHECKS[format] : undefined;
}

/**
 * The refusal of a string that is none of `formats` (one, or the branches of an `anyOf`):
 * `must be a date in RFC 3339 form, such as 2024-01-01 (got "01/02/2024")`.
 */
export function formatRefusal(formats: readonly string[], value: string): string {
  const expected = formats.map((f) => (Object.hasOwn(FORMAT_EXPECTED, f) ? FORMAT_EXPECTED[f] : `a valid ${f}`)).join(', or ');
  return `must be ${expected} (got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
}

/**
 * `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` in linear time: that pattern backtracks over every dot after
 * the `@` (about 13 s for `'a@' + '.'.repeat(100_000) + ' '`). One `@` with text on both sides,
 * no white space, and a dot in the domain with text on both sides.
 */
function isEmail(v: string): boolean {
  if (!/^[^\s@]+@[^\s@]+$/.test(v)) return false;
  const domain = v.slice(v.indexOf('@') + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}
