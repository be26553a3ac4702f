import type { CapPeriod } from '../tenants/tenant-settings.js';
import { zonedDate } from '../kernel/zoned-time.js';

/**
 * Days as the tenant's members live them (docs/points.md#caps): a day is a `YYYY-MM-DD` of the
 * tenant's time zone, and a period is the calendar DAY, WEEK (Monday to Sunday), MONTH or YEAR
 * holding it. Arithmetic on the dates themselves, in UTC, where no day is 23 or 25 hours long.
 */

export type Day = string;

/** A day of 24 hours, for instants a number of days apart (an expiry `afterDays` after an earning). */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The day an instant falls on in `zone`. */
export function dayOf(instant: Date, zone: string): Day {
  return zonedDate(instant, zone);
}

export function addDays(day: Day, days: number): Day {
  const date = parse(day);
  date.setUTCDate(date.getUTCDate() + days);
  return format(date);
}

/** The first and last day of the `period` holding `day`. */
export function periodOf(day: Day, period: CapPeriod): { first: Day; last: Day } {
  const date = parse(day);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (period) {
    case 'DAY':
      return { first: day, last: day };
    case 'WEEK': {
      // getUTCDay: Sunday 0 … Saturday 6; a week starts on Monday.
      const sinceMonday = (date.getUTCDay() + 6) % 7;
      const first = addDays(day, -sinceMonday);
      return { first, last: addDays(first, 6) };
    }
    case 'MONTH':
      return {
        first: format(new Date(Date.UTC(year, month, 1))),
        last: format(new Date(Date.UTC(year, month + 1, 0))),
      };
    case 'YEAR':
      return { first: `${year}-01-01`, last: `${year}-12-31` };
  }
}

function parse(day: Day): Date {
  return new Date(`${day}T00:00:00Z`);
}

function format(date: Date): Day {
  return date.toISOString().slice(0, 10);
}
