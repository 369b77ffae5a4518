/**
 * Whether the day exists: 2024-02-29 does, 2025-02-29 and 2025-04-31 do not (`Date.parse` rolls
 * them over to the next month). `setUTCFullYear`, not `Date.UTC`, which reads the years 0 to 99
 * as 1900 to 1999 (0000-02-29 is a day, 1900-02-29 is not).
 */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether `text` starts with a `YYYY-MM-DD` that is a real day (see `isCalendarDay`). */
export function startsWithCalendarDay(text: string): boolean {
  return isCalendarDay(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10)));
}
