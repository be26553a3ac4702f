import { withDigits } from './amounts.js';
import { plainText } from './fold-text.js';

/** What a row says of an item's quantity and unit price, apart from its description. */
export interface Quantity {
  quantity: number;
  unitPrice?: number;
  /** For weighed and metered goods: "kg", "l". */
  unit?: string;
}

const MONEY = String.raw`(?:[$€£]|EUR|GBP|USD|AED|DHS?)?\s?(\d+[.,]\s?\d{2,3})`;
/** Units as printed and as misread: "lb" as "Ib" or "1b", "L" as "I", "1" or "|". */
const UNIT = String.raw`(KG|G|LBS?|IB|1B|GAL|LTR|LITRES?|LITERS?|L|I|1|\|)`;
/** A currency mark, or what the OCR made of it ("f0.75", "∈/kg"), before or after a unit price. */
const MARK = String.raw`(?:[$€£]|EUR|GBP|USD|AED|DHS?|[^\d\s/])?`;
const TIMES = String.raw`\s?(?:X|×|\*|@)\s?`;
const PER = String.raw`(?:\s?(?:AED|EUR|GBP|USD|DHS?|[^\d\s/]))?(?:\s?(?:EA|EACH|/+\s?(?:[A-Z1|]{1,3})?|PER \w+|L'UNITE|STK|ST\.?|PIECE|PCE))?`;

/**
 * "1.132 kg @ £0.75/kg", "38.52 L @ £1.459/L", "8.087 gal @ $4.159/gal": weighed or metered. The
 * quantity has decimals (a count "2 x 4.50" is no measure); a unit the OCR lost leaves it unitless.
 */
const MEASURE = String.raw`(\d+[.,]\d{2,3})\s?${UNIT}?\s?(?:X|×|@|A)\s?${MARK}\s?(\d+[.,]\s?\d{2,3})${PER}`;
const MEASURED = new RegExp(String.raw`^${MEASURE}(?:\s[A-Z])?$`);
/** "2 x 4.50", "2 @ 4.50 each", "3 X": a count, perhaps with its unit price. */
const COUNTED = new RegExp(String.raw`^(\d{1,3})${TIMES}(?:${MONEY}${PER})?$`);
/** "@ 9.50 each", "à 9,50": a unit price alone. */
const EACH = new RegExp(String.raw`^(?:@|A|X|×|JE|PRIX UNIT\w*)\s?${MONEY}${PER}$`);

function number(text: string): number {
  return Number(text.replace(/\s/g, '').replace(',', '.'));
}

/** A row (without its price) that holds only a quantity: the line above or below an item's name. */
export function quantityRow(text: string): Quantity | undefined {
  const plain = plainText(withDigits(text)).replace(/\s+$/, '');
  const measured = MEASURED.exec(plain);
  if (measured)
    return {
      quantity: number(measured[1]!),
      ...(measured[2] ? { unit: unitName(measured[2]) } : {}),
      unitPrice: number(measured[3]!),
    };
  const counted = COUNTED.exec(plain);
  if (counted) return { quantity: Number(counted[1]), ...(counted[2] ? { unitPrice: number(counted[2]) } : {}) };
  const each = EACH.exec(plain);
  if (each) return { quantity: Number.NaN, unitPrice: number(each[1]!) };
  return undefined;
}

/**
 * A description with its quantity written in: "2 x Tea @ 1.80", "Tea 2 @ 1.80", "2 x 1.80 Tea",
 * "2x Coffee", "Coffee x2", "Bananas 1.132 kg @ 0.75/kg", or a leading count, "2 Sea Bass".
 */
export function quantityInDescription(text: string): { description: string; quantity?: Quantity } {
  const patterns: [RegExp, (groups: string[]) => { description: string; quantity: Quantity }][] = [
    [
      new RegExp(String.raw`^(.*?\p{L}.*?)\s${MEASURE}$`, 'iu'),
      ([name, count, unit, price]) => ({
        description: name!,
        quantity: {
          quantity: number(count!),
          ...(unit ? { unit: unitName(unit.toUpperCase()) } : {}),
          unitPrice: number(price!),
        },
      }),
    ],
    [
      new RegExp(String.raw`^(\d{1,3})\s?[x×*]\s?(.*?\p{L}.*?)\s?@\s?${MONEY}${PER}$`, 'iu'),
      ([count, name, price]) => ({
        description: name!,
        quantity: { quantity: Number(count), unitPrice: number(price!) },
      }),
    ],
    [
      new RegExp(String.raw`^(.*?\p{L}.*?)\s(\d{1,3})\s?(?:[x×*@]|x\s?@)\s?${MONEY}${PER}$`, 'iu'),
      ([name, count, price]) => ({
        description: name!,
        quantity: { quantity: Number(count), unitPrice: number(price!) },
      }),
    ],
    [
      new RegExp(String.raw`^(\d{1,3})\s?[x×*@]\s?${MONEY}\s(.*\p{L}.*)$`, 'iu'),
      ([count, price, name]) => ({
        description: name!,
        quantity: { quantity: Number(count), unitPrice: number(price!) },
      }),
    ],
    [
      /^(\d{1,3})\s?[x×*]\s?(\p{L}.*)$/iu,
      ([count, name]) => ({ description: name!, quantity: { quantity: Number(count) } }),
    ],
    [
      /^(.*\p{L}.*?)\s[x×*]\s?(\d{1,3})$/iu,
      ([name, count]) => ({ description: name!, quantity: { quantity: Number(count) } }),
    ],
    [
      /^(\d{1,2})(?:\s|(?=\p{Lu}\p{Ll}))(\p{L}{2}.*)$/u,
      ([count, name]) => ({ description: name!, quantity: { quantity: Number(count) } }),
    ],
  ];
  for (const [pattern, read] of patterns) {
    const match = pattern.exec(withDigits(text).trim());
    if (match) {
      const found = read(match.slice(1));
      if (found.quantity.quantity > 0) return { description: found.description.trim(), quantity: found.quantity };
    }
  }
  return { description: text.trim() };
}

function unitName(unit: string): string {
  if (/^(?:LBS?|IB|1B)$/.test(unit)) return 'lb';
  if (/^(?:L|I|1|\||LTR|LITRES?|LITERS?)$/.test(unit)) return 'l';
  return unit.toLowerCase();
}
