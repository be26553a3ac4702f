/**
 * How much of what matters on a receipt an OCR engine read, whatever parser comes after: the
 * receipt's key tokens (total, item prices, date, merchant's name words, transaction id, as
 * printed) looked for in the text it read.
 */
export interface KeyToken {
  kind: 'total' | 'price' | 'date' | 'merchant' | 'transaction';
  /** The ways the receipt may print it (a French amount with either thousands separator); the best counts. */
  printed: string[];
}

export interface TokenScore {
  /** Share of the tokens found exactly (case aside for words; an amount not inside a longer number). */
  found: number;
  /** Mean over the tokens of 1 − (edits to the closest stretch of the text) / (token's length). */
  characters: number;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function foundExactly(text: string, token: string, kind: KeyToken['kind']): boolean {
  // A price "2.50" is not found in "12.50", nor a word inside a longer one; a currency code may touch an amount ("AED220.00").
  const edge = kind === 'total' || kind === 'price' ? '\\p{N}' : '\\p{L}\\p{N}';
  return new RegExp(`(?<![${edge}])${escape(token)}(?![${edge}])`, 'u').test(text);
}

/** The fewest edits that turn `token` into some stretch of `text` (Sellers' approximate matching). */
export function closestEdits(text: string, token: string): number {
  let previous = new Array<number>(text.length + 1).fill(0);
  for (let row = 1; row <= token.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= text.length; column += 1) {
      const substitution = previous[column - 1]! + (token[row - 1] === text[column - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[column]! + 1, current[column - 1]! + 1));
    }
    previous = current;
  }
  return Math.min(...previous);
}

export function scoreTokens(ocrText: string, tokens: KeyToken[]): TokenScore {
  const text = collapse(ocrText);
  if (tokens.length === 0) return { found: 1, characters: 1 };
  let found = 0;
  let characters = 0;
  for (const token of tokens) {
    const printed = token.printed.map(collapse);
    if (printed.some((wanted) => foundExactly(text, wanted, token.kind))) found += 1;
    characters += Math.max(...printed.map((wanted) => Math.max(0, 1 - closestEdits(text, wanted) / wanted.length)));
  }
  return { found: found / tokens.length, characters: characters / tokens.length };
}

/** An amount as printed, without its currency mark: PaddleOCR's dictionary has no € or £, and the mark is not the amount. */
export const withoutCurrencyMark = (amount: string) => amount.replace(/[€£$]|\b(?:EUR|GBP|USD|AED)\b/g, '').trim();
