/**
 * Capitals without accents, single spaces, full-width marks as ASCII: "Rückgeld" and "RUCKGELD"
 * are one wording. Punctuation stays: labels are told apart by it ("ZW. SUMME", "N°", "SOUS-TOTAL").
 */
export function plainText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase().replace(/\s+/g, ' ').trim();
}

/**
 * A name's letters and digits alone, case and accents folded ("MÜLLER-Drogerie", "MULLERDROGERIE"
 * and "Müller Drogerie" fold alike): OCR engines drop and add spaces and punctuation between words,
 * which no reader of the receipt would call a misreading. Letters of every script stay.
 */
export function lettersAndDigits(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The letters the OCR reads as digits inside a word ("T0TAL", "SUBT0TAL", "AEON C0.", "F00DICI0US"):
 * a 0 after a letter or before two, a 1 or | between letters. A number of its own is left alone.
 */
export function withLettersForDigits(text: string): string {
  return text.replace(/(?<=\p{L})0|0(?=\p{L}{2})/gu, 'O').replace(/(?<=\p{L})[1|](?=\p{L})/gu, 'I');
}
