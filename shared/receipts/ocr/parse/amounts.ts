import { timesIn } from './times.js';

/** An amount of money as printed, read to a number. */
export interface Amount {
  /** Negative for a refund or a discount: "-1.00", "1.00-". */
  value: number;
  /** Normalised as the receipt's columns keep it: "1234.50", "-1.00". */
  text: string;
  /** The currency printed beside it, when one is ("£", "EUR", "Dhs", "RM"). */
  currency?: string;
  /** Where it starts and ends in the text it was read from. */
  start: number;
  end: number;
}

/** Marks printed beside amounts: "S$" is Singapore's dollar, "RM" Malaysia's ringgit. */
const CURRENCY = String.raw`(?:S\$|[$€£]|EUR|GBP|USD|AED|Dhs?\.?|DH|RM|MYR|SGD)`;
/**
 * The decimal separator, and what the OCR makes of it on a faded or noisy print: a semicolon, a
 * colon, an ideographic comma ("19;90", "1:75", "3、15"). A colon makes a time as well ("Check
 * opened 13:47"): such an amount is no amount unless a currency mark says so (`amountsIn`).
 */
const DECIMAL = String.raw`\s?[.,;:、]`;
/**
 * An amount has two decimals after its last separator, a point or a comma; any earlier separator
 * groups thousands ("1.234,50", "1,234.50", "1'234.50"). A space may follow the decimal separator
 * ("$208. 36": a wide gap in the print). A minus against it ("-1.00", "1.00-") makes it negative,
 * but not a run of dashes from a leader ("TOTAL --57.00"); a VAT code letter after it ("4.50 A")
 * is not part of it. French receipts group thousands with a space before a decimal comma
 * ("1 290,00"): read as one amount, not a "1" and 290.00, whose items and total would agree with
 * each other and be wrong together.
 */
const AMOUNT = new RegExp(
  String.raw`(?<![\d,:;/]|\d\.)(?<lead>(?<![-.\w])-)?(?<before>${CURRENCY}\s?)?(?<minus>(?<![-.])-)?` +
    String.raw`(?<number>\d{1,3}(?:[.,']\d{3})+${DECIMAL}\s?\d{2}|\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}|\d+${DECIMAL}\s?\d{2})(?![\d%]|[.,:/]\d)` +
    String.raw`(?<trail>-(?![-\d]))?(?<after>\s?${CURRENCY}(?![A-Za-z]))?`,
  'g',
);
/** What may follow the last amount of a row and still leave it the row's price. */
const PRICE_SUFFIX = /^[\s.,:;'"·*-]*(?:\d?[A-Za-z€]\d?\*?)?[\s.,:;'"·*]*$/;

/**
 * Letters the OCR reads for digits inside a number ("I.80", "1O.50", "RMO.02"): a token of digits
 * and these alone; and a pound sign read as an L, a dollar sign as an s.
 */
const DIGIT_LOOKALIKES: Record<string, string> = { I: '1', l: '1', '|': '1', O: '0', o: '0' };
const NUMBER_TOKEN = /(?<=^|\s|[$€£]|\bRM)[\dIlO|o]+[.,;:][\dIlOo]{2}(?=$|\s|-|[A-Z]$)/g;
/** "£" read as an L glued to the amount ("L3.10", "LO.85"). */
const POUND_AS_L = /(?<=^|\s)L(?=[\dO]+[.,][\dO]{2}(?:$|\s))/g;
/** "$" read as an s glued to the amount ("Total Amount s8.20"): a dollar's amount has a decimal point. */
const DOLLAR_AS_S = /(?<=^|\s)s(?=\d+\.\d{2}(?:$|\s))/g;

export function withDigits(text: string): string {
  return text
    .replace(POUND_AS_L, '£')
    .replace(DOLLAR_AS_S, '$')
    .replace(NUMBER_TOKEN, (token) =>
      /\d/.test(token) ? token.replace(/[IlO|o]/g, (letter) => DIGIT_LOOKALIKES[letter]!) : token,
    );
}

function toAmount(match: RegExpExecArray): Amount | undefined {
  const groups = match.groups!;
  const digits = groups.number!.replace(/\s/g, '');
  const whole = digits.slice(0, -3).replace(/[.,';:、]/g, '');
  const value = Number(`${whole}.${digits.slice(-2)}`);
  if (!Number.isFinite(value) || value >= 1e9) return undefined;
  const negative = Boolean(groups.lead || groups.minus || groups.trail);
  const signed = negative ? -value : value;
  const currency = (groups.before ?? groups.after)?.trim();
  return {
    value: signed,
    text: signed.toFixed(2),
    ...(currency ? { currency: currency.replace(/\.$/, '') } : {}),
    start: match.index,
    end: match.index + match[0].length,
  };
}

/** Every amount in a text, left to right. */
export function amountsIn(text: string): Amount[] {
  const read = withDigits(text);
  return [...read.matchAll(AMOUNT)].flatMap((match) => {
    const amount = toAmount(match);
    return amount && (amount.currency !== undefined || !readsAsTime(read, amount)) ? [amount] : [];
  });
}

/** Room after an amount for the "PM" or " a.m." that makes "4.05" a time. */
const MERIDIEM_ROOM = 6;

/** Whether the amount's text is a time: "13:47", "4.05pm". */
function readsAsTime(text: string, amount: Amount): boolean {
  return timesIn(text.slice(amount.start, amount.end + MERIDIEM_ROOM)).some((time) => time.start === 0);
}

/** The amount a row ends with (its price column), when nothing but a VAT code follows it. */
export function amountAtEnd(text: string): Amount | undefined {
  const last = amountsIn(text).at(-1);
  return last && PRICE_SUFFIX.test(text.slice(last.end)) ? last : undefined;
}

/** Amounts compare in cents: floating point sums drift. */
export function cents(value: number): number {
  return Math.round(value * 100);
}
