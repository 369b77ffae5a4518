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
