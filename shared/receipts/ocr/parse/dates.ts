import { plainText } from './fold-text.js';
import { roundConfidence } from './confidence.js';
import { misreadingOf } from './similarity.js';

/** A date found in a row's text. */
export interface DateReading {
  /** YYYY-MM-DD */
  value: string;
  /** Written with numbers that could be day-month or month-day, and the locale did not say which. */
  ambiguous: boolean;
  start: number;
  end: number;
}

const MONTH_NAMES: [number, string[]][] = [
  [1, ['JAN', 'JANUARY', 'JANUAR', 'JANV', 'JANVIER', 'JAENNER']],
  [2, ['FEB', 'FEBRUARY', 'FEBRUAR', 'FEV', 'FEVR', 'FEVRIER']],
  [3, ['MAR', 'MARCH', 'MARZ', 'MAERZ', 'MARS']],
  [4, ['APR', 'APRIL', 'AVR', 'AVRIL']],
  [5, ['MAY', 'MAI']],
  [6, ['JUN', 'JUNE', 'JUNI', 'JUIN']],
  [7, ['JUL', 'JULY', 'JULI', 'JUIL', 'JUILLET']],
  [8, ['AUG', 'AUGUST', 'AOUT']],
  [9, ['SEP', 'SEPT', 'SEPTEMBER', 'SEPTEMBRE']],
  [10, ['OCT', 'OCTOBER', 'OKT', 'OKTOBER', 'OCTOBRE']],
  [11, ['NOV', 'NOVEMBER', 'NOVEMBRE']],
  [12, ['DEC', 'DECEMBER', 'DEZ', 'DEZEMBER', 'DECEMBRE']],
];
const MONTH_OF = new Map(MONTH_NAMES.flatMap(([month, names]) => names.map((name) => [name, month] as const)));
const MONTH = `(${[...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|')})\\.?`;

const YEAR_FIRST = /\b(20\d{2})[-/.](\d{1,2})[-/.](\d{1,2})\b/g;
const NUMERIC = /(?<!\d|\d\.)(\d{1,2})\s?([/.-])\s?(\d{1,2})\s?\2\s?(20\d{2}|\d{2})(?!\.?\d)/g;
const DAY_MONTH_NAME = new RegExp(
  String.raw`(?<!\d)(\d{1,2})(?:ST|ND|RD|TH|ER)?\.?[\s-]*${MONTH}[\s,-]*(20\d{2}|\d{2})\b`,
  'g',
);
const MONTH_NAME_DAY = new RegExp(
  String.raw`(?<![A-Z])${MONTH}[\s-]*(\d{1,2})(?:ST|ND|RD|TH)?[\s,-]*(20\d{2})(?!\d)`,
  'g',
);

/**
 * Every date a text holds, in the formats receipts print: 2025-08-31, 2025/08/31, 31/08/2025,
 * 24.10.24, 31-Aug-2025, Sunday 31 August 2025, Aug 31, 2025, and German and French month names
 * (31. August 2025, 31 août 2025). Numbers that fit both orders are read in the order the
 * locale gives (`dayFirst`), and marked ambiguous when there is none.
 */
export function datesIn(text: string, dayFirst: boolean | undefined): DateReading[] {
  const plain = withDateApartFromTime(withMonthNamesRestored(plainText(text)));
  const found: DateReading[] = [];
  const add = (match: RegExpMatchArray, value: string | undefined, ambiguous = false) => {
    if (value && !found.some((date) => date.start < match.index! + match[0].length && match.index! < date.end))
      found.push({ value, ambiguous, start: match.index!, end: match.index! + match[0].length });
  };
  for (const match of plain.matchAll(YEAR_FIRST)) add(match, isoDate(+match[1]!, +match[2]!, +match[3]!));
  for (const match of plain.matchAll(DAY_MONTH_NAME))
    add(match, isoDate(fullYear(match[3]!), MONTH_OF.get(match[2]!)!, +match[1]!));
  for (const match of plain.matchAll(MONTH_NAME_DAY))
    add(match, isoDate(+match[3]!, MONTH_OF.get(match[1]!)!, +match[2]!));
  for (const match of plain.matchAll(NUMERIC)) {
    const [first, second, year] = [+match[1]!, +match[3]!, fullYear(match[4]!)];
    const eitherOrder = first <= 12 && second <= 12 && first !== second;
    // A dotted date is European whatever else the page says; a first number over 12 is a day.
    const readDayFirst = first > 12 || (second <= 12 && (match[2] === '.' || (dayFirst ?? true)));
    const value = readDayFirst ? isoDate(year, second, first) : isoDate(year, first, second);
    add(match, value, eitherOrder && match[2] !== '.' && dayFirst === undefined);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Month names of six letters or more, long enough that one misread letter makes no other word of them. */
const LONG_MONTH_NAMES = [...MONTH_OF.keys()].filter((name) => name.length >= 6);

/**
 * Month names as the engine misreads them: an O read as a 0 before a year ("19 0CT 2025", "190ct
 * 2025", "N0V"; not a count, "PAPER PLATES 100CT 24.99"), a letter of a long name misread or
 * dropped ("SEPLEMBER").
 */
function withMonthNamesRestored(text: string): string {
  return text
    .replace(/(?<![A-Z])(?:0CT|N0V)(?=[\s,-]*(?:20)?\d{2}(?![\d.,:]))/g, (name) => name.replace('0', 'O'))
    .replace(/(?<![A-Z])[A-Z]{6,9}(?![A-Z])/g, (word) =>
      MONTH_OF.has(word) ? word : (misreadingOf(word, LONG_MONTH_NAMES, () => 1) ?? word),
    );
}

/**
 * The OCR may drop the space between a date and its time ("22.01.2410:41:15", "07/01/202412h42",
 * "10MAR201818:24"): put it back, so each reads on its own. The text keeps its length but for the
 * space, which callers only use to find a date's row and place.
 */
export function withDateApartFromTime(text: string): string {
  return text
    .replace(/(\b(?:\d{1,2}[./-]\d{1,2}[./-](?:20)?|20\d{2}[./-]\d{1,2}[./-])\d{2})(?=\d{1,2}[:H]\d{2})/g, '$1 ')
    .replace(MONTH_NAME_DATE_BEFORE_TIME, '$1 ');
}

/** "10MAR201818:24": a date with its month's name, its four-digit year glued to the time. */
const MONTH_NAME_DATE_BEFORE_TIME = new RegExp(String.raw`(\b\d{1,2} ?${MONTH} ?20\d{2})(?=\d{1,2}:\d{2})`, 'g');

/**
 * Rows that print a date other than the sale's: returns, offers, expiry. Long words count inside
 * others, as the OCR glues words together ("valablejusqu'au27/02/2024").
 */
const NOT_THE_SALE =
  /UNTIL|VALID|VALABLE|JUSQU|GULTIG|EXPIR|RETURN|REFUND|RETOUR|ECHANGE|BEFORE|USE ?BY|\b(?:EXP|BIS|MHD|AVANT)\b/;

function isSaleDateContext(text: string): boolean {
  return !NOT_THE_SALE.test(plainText(text));
}

function fullYear(text: string): number {
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

function isoDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 2000 || year > 2099) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 ? date.toISOString().slice(0, 10) : undefined;
}

export interface SaleDate {
  value: string;
  confidence: number;
  /** The row it was printed on, where the sale's time is looked for first. */
  rowIndex: number;
}

/** A date on a row labelled as the date, or printed with a time, is the sale's. */
const DATE_LABEL = /\b(?:DATE|DATUM|LE|LE DATE|DATED)\b/;

/**
 * The sale's date: among the dates not printed as a return, offer or expiry limit ("Returns
 * accepted until"), the one labelled as the date or printed beside a time, else the topmost.
 * A date whose order (day or month first) the receipt gives no evidence for is left out, and so
 * is a choice between different dates that nothing above settles.
 */
export function saleDate(
  rows: { text: string; index: number; confidence: number }[],
  dayFirst: boolean | undefined,
  hasTime: (text: string) => boolean,
): SaleDate | undefined {
  const candidates = rows.flatMap((row) =>
    isSaleDateContext(row.text)
      ? datesIn(row.text, dayFirst).map((date) => ({
          date,
          row,
          marked: DATE_LABEL.test(plainText(row.text)) || hasTime(row.text),
        }))
      : [],
  );
  if (!candidates.length) return undefined;
  const marked = candidates.filter((candidate) => candidate.marked);
  const pool = marked.length ? marked : candidates;
  const chosen = pool[0]!;
  if (chosen.date.ambiguous) return undefined;
  const agreeing = candidates.every((candidate) => candidate.date.value === chosen.date.value);
  if (!agreeing && !marked.length) return undefined;
  const confidence = chosen.row.confidence * (agreeing ? 1 : 0.85);
  return { value: chosen.date.value, confidence: roundConfidence(confidence), rowIndex: chosen.row.index };
}
