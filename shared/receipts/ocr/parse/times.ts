import { withDateApartFromTime } from './dates.js';
import { plainText } from './fold-text.js';
import { roundConfidence } from './confidence.js';

export interface TimeReading {
  /** HH:MM:SS */
  value: string;
  start: number;
  end: number;
}

/**
 * Times as receipts print them: 13:47, 13:47:05, 18h43 (French), 4:05 PM, 4.05pm, 12:15 AM.
 * A point between hour and minutes counts only with AM or PM, else "12.50" would be a time.
 */
const TIME =
  /(?<![\d.,/]|[^A-Z]:)([01]?\d|2[0-3])(?:\s?(:)\s?([0-5]\d)(?::([0-5]\d))?|(H)([0-5]\d)|(\.)([0-5]\d)(?=\s?[AP]\.?M))(?:\s?([AP])\.?M\.?)?(?![\d.,]*\d)/g;

export function timesIn(text: string): TimeReading[] {
  return [...withDateApartFromTime(plainText(text)).matchAll(TIME)].flatMap((match) => {
    let hour = Number(match[1]);
    const minutes = match[3] ?? match[6] ?? match[8]!;
    const meridiem = match[9];
    if (meridiem) {
      if (hour < 1 || hour > 12) return [];
      hour = (hour % 12) + (meridiem === 'P' ? 12 : 0);
    }
    const value = `${String(hour).padStart(2, '0')}:${minutes}:${match[4] ?? '00'}`;
    return [{ value, start: match.index, end: match.index + match[0].length }];
  });
}

/** Rows that print hours other than the sale's: opening hours. */
const NOT_THE_SALE =
  /\b(?:OPEN\w*|HOURS|MON|TUE|WED|THU|FRI|SAT|SUN|OFFNUNGSZEITEN|GEOFFNET|OUVERT\w*|HORAIRES)\b.*\d\s?-\s?\d/;

function isSaleTimeContext(text: string): boolean {
  return !NOT_THE_SALE.test(plainText(text));
}

/**
 * The sale's time: on the sale date's row, else the nearest row to it that prints one (a receipt
 * prints them together or one above the other), else the first outside opening hours.
 */
export function saleTime(
  rows: { text: string; index: number; confidence: number }[],
  dateRowIndex: number | undefined,
): { value: string; confidence: number } | undefined {
  const candidates = rows.flatMap((row) =>
    isSaleTimeContext(row.text) ? timesIn(row.text).map((time) => ({ time, row })) : [],
  );
  if (!candidates.length) return undefined;
  const distance = (index: number) => (dateRowIndex === undefined ? index : Math.abs(index - dateRowIndex));
  const chosen = candidates.reduce((best, candidate) =>
    distance(candidate.row.index) < distance(best.row.index) ? candidate : best,
  );
  const near = dateRowIndex === undefined || distance(chosen.row.index) <= 2;
  return {
    value: chosen.time.value,
    confidence: roundConfidence(chosen.row.confidence * (near ? 1 : 0.8)),
  };
}
