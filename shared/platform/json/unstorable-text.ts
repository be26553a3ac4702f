/** NUL, or half of a surrogate pair: text JSON carries but PostgreSQL's jsonb and text refuse. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What a client is told of such text, wherever it sent it. */
export const UNSTORABLE_TEXT_RULE = 'text may not hold NUL characters or unpaired surrogates';

/** Whether PostgreSQL would refuse this text: no column holds it, and no query may search for it. */
export function holdsUnstorableText(text: string): boolean {
  return UNSTORABLE.test(text);
}

/**
 * Text from elsewhere (a webhook receiver's answer, an error's message) made storable: NULs
 * dropped, half surrogate pairs (a cut emoji) replaced by U+FFFD.
 */
export function storableText(text: string): string {
  return text.replaceAll('\0', '').toWellFormed();
}

/**
 * Where in a parsed JSON document a string (or an object key) holds text PostgreSQL cannot store,
 * as a path like `payload.lines[0].name` (`''` for the document itself); undefined when all of it
 * can be stored. In JSON text such characters can only come as `\u` escapes, so a document whose
 * text has none needs no walk.
 */
export function unstorableTextAt(document: unknown, text: string): string | undefined {
  return text.includes('\\u') ? findUnstorable(document, '') : undefined;
}

function findUnstorable(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return holdsUnstorableText(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorable(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (holdsUnstorableText(key)) return path;
    const found = findUnstorable(item, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
