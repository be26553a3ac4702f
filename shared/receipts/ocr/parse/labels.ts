import { plainText, withLettersForDigits } from './fold-text.js';
import { editDistance, misreadingOf } from './similarity.js';

/** What a labelled row of a receipt's foot holds. */
export type LabelKind =
  | 'total'
  | 'subtotal'
  | 'tax'
  | 'taxTable'
  | 'discount'
  | 'savings'
  | 'tender'
  /** A tender in cash, which may exceed the total: the difference is given back as change. */
  | 'cash'
  | 'change'
  | 'deposit'
  | 'tip'
  | 'rounding'
  | 'itemCount';

export type Language = 'en' | 'de' | 'fr' | 'lv';

export interface Label {
  kind: LabelKind;
  /** The language the wording belongs to; none for words every language prints ("TOTAL", "VISA"). */
  language?: Language;
}

interface Wording {
  kind: LabelKind;
  language?: Language;
  /** Matched against the row's text in capitals without accents. */
  pattern: RegExp;
}

/**
 * The wordings, most specific first: "TOTAL SAVINGS", "TOTAL DISCOUNT" and "TOTAL TVA" begin like
 * a total and are not one, "SOUS-TOTAL" ends like one. A wording anchored with ^ counts only at
 * the start of a row, where a receipt prints its labels: an item may well be called "Bar" or
 * "Change purse", and a label word inside its description must not make it a tender.
 */
const WORDINGS: Wording[] = [
  { kind: 'savings', language: 'en', pattern: /\b(?:TOTAL SAVINGS?|YOU SAVED|SAVINGS|SAVED)\b/ },
  { kind: 'savings', language: 'de', pattern: /\b(?:ERSPARNIS|GESPART|SIE SPAREN)\b/ },
  { kind: 'savings', language: 'fr', pattern: /\b(?:ECONOMIES?|VOUS AVEZ ECONOMISE)\b/ },
  {
    kind: 'discount',
    language: 'en',
    pattern: /\b(?:TOTAL DISCOUNTS?|DISCOUNTS?|COUPON|VOUCHER|PROMO(?:TION)?|MULTI ?BUY|MEAL DEAL SAVING)\b/,
  },
  { kind: 'discount', language: 'de', pattern: /\b(?:RABATT|NACHLASS|PREISVORTEIL|AKTIONSRABATT)\b/ },
  { kind: 'discount', language: 'fr', pattern: /\b(?:REMISES?|REDUCTIONS?|RABAIS)\b/ },
  { kind: 'discount', language: 'lv', pattern: /\bATLAIDE\b/ },
  {
    kind: 'itemCount',
    language: 'en',
    pattern: /^\W*(?:(?:NO\.? ?OF |NUMBER OF |TOTAL )?ITEMS?(?: SOLD| COUNT)?|ITEM COUNT)\b/,
  },
  { kind: 'itemCount', language: 'de', pattern: /^\W*(?:ANZAHL )?ARTIKEL\b/ },
  { kind: 'itemCount', language: 'fr', pattern: /^\W*(?:NOMBRE D.)?ARTICLES?\b/ },
  { kind: 'taxTable', language: 'fr', pattern: /\b(?:TOTAL HT|HT|TTC TVA|BASE HT)\b(?!.*\bTTC\b)/ },
  // "BEZ PVN-A 21.00% 7.93" and "AR PVN-A 21.00% 9.59": the sale without and with VAT ("PUN" as the OCR reads PVN).
  { kind: 'taxTable', language: 'lv', pattern: /^\W*(?:BEZ|AR) ?P[VU]N\b/ },
  { kind: 'taxTable', language: 'de', pattern: /^\W*(?:NETTO|BRUTTO|STEUER ?SATZ|MWST ?SATZ)\b/ },
  {
    kind: 'taxTable',
    language: 'en',
    pattern: /^\W*(?:NET|GROSS|VAT RATE|RATE)\b(?! AMOUNT| AMT| TOTAL| PAY| A PAYER)/,
  },
  // "TOTAL INCL. VAT", and Malaysia's "Total Sales (Inclusive of GST)", "TOTAL SALES (EXCLUDING GST)",
  // "Sub Total (Exclusive GST)", "(Excluded GST) Sub Total": the tax's name printed on a total or
  // subtotal row does not make it the tax. "NCLUSIV": the OCR drops an I; "TOTALINCL.GST": and the space.
  {
    kind: 'subtotal',
    language: 'en',
    pattern: /^\W*SUB ?-? ?TOTAL\b[^\d]{0,24}?(?:EXCL|EXC)|^\W*EXCL[A-Z]*\b[^\d]{0,12}?SUB ?-? ?TOTAL\b/,
  },
  { kind: 'total', pattern: /^\W*(?:TOTAL|SUMME|GESAMT) ?[^\d]{0,24}?(?:INCL|INC|INKL|NCLUSIV)/ },
  { kind: 'subtotal', language: 'en', pattern: /^\W*(?:TOTAL )?(?:EXCL|EXC)\b|^\W*TOTAL\b[^\d]{0,24}?EXCL/ },
  {
    kind: 'itemCount',
    language: 'en',
    pattern: /^\W*(?:TOTAL )?(?:QTY|QUANTITY)\b/,
  },
  { kind: 'tax', language: 'fr', pattern: /\b(?:TOTAL )?TVA\b/ },
  { kind: 'tax', language: 'de', pattern: /\b(?:MWST|UST|MEHRWERTSTEUER|STEUER)\b/ },
  // Not "PVN LV40003…", the seller's VAT number in the header.
  { kind: 'tax', language: 'lv', pattern: /^\W*P[VU]N\b(?! ?LV)/ },
  {
    kind: 'tax',
    language: 'en',
    pattern: /\b(?:TOTAL )?(?:VAT|TAX|SALES TAX|GST)\b(?! INVOICE| REG| NO\b| NUMBER| ID)/,
  },
  {
    kind: 'subtotal',
    language: 'en',
    pattern: /^\W*(?:SUB ?-? ?TOTAL|MERCHANDISE TOTAL)\b/,
  },
  { kind: 'subtotal', language: 'de', pattern: /^\W*(?:ZWISCHENSUMME|ZW\.? ?SUMME)\b/ },
  { kind: 'subtotal', language: 'fr', pattern: /^\W*SOUS ?-? ?TOTAL\b/ },
  { kind: 'subtotal', language: 'lv', pattern: /^\W*(?:STARPSUMMA|SUMMA)\b(?! APMAKSAI)/ },
  { kind: 'change', language: 'en', pattern: /^\W*(?:CASH )?(?:CHANGE(?: DUE| GIVEN)?)\b/ },
  { kind: 'change', language: 'de', pattern: /^\W*(?:RUCKGELD|ZURUCK|WECHSELGELD)\b/ },
  { kind: 'change', language: 'fr', pattern: /^\W*(?:RENDU|MONNAIE(?: RENDUE)?|A RENDRE)\b/ },
  { kind: 'change', language: 'lv', pattern: /^\W*(?:IZDOTS|ATLIKUMS)\b/ },
  {
    kind: 'total',
    language: 'en',
    pattern:
      /^\W*(?:GRAND TOTAL|TOTAL (?:DUE|AMOUNT|TO PAY)|AMOUNT (?:DUE|PAYABLE)|BALANCE DUE|NET AMOUNT|NET AMT|AMT DUE|TO PAY|NETT? TOTAL|ROUNDED TOTAL)\b/,
  },
  { kind: 'total', language: 'de', pattern: /^\W*(?:SUMME|GESAMT(?:BETRAG|SUMME)?|ZU ZAHLEN|ENDBETRAG|ENDSUMME)\b/ },
  { kind: 'total', language: 'fr', pattern: /^\W*(?:NET A PAYER|A PAYER|TOTAL TTC|MONTANT (?:DU|TOTAL|TTC))\b/ },
  { kind: 'total', language: 'lv', pattern: /^\W*(?:KOPA(?: APMAKSAI)?|SUMMA APMAKSAI|APMAKSAI|KOPSUMMA)\b/ },
  { kind: 'total', pattern: /^\W*TOTAL\b/ },
  { kind: 'cash', language: 'en', pattern: /^\W*(?:CASH|TENDERED|AMOUNT TENDERED)\b/ },
  {
    kind: 'tender',
    language: 'en',
    pattern: /^\W*(?:CARD|DEBIT|CREDIT|CONTACTLESS|PAID|PAYMENT|APPLE PAY|GOOGLE PAY|GIFT CARD|CHIP ?& ?PIN)\b/,
  },
  { kind: 'cash', language: 'de', pattern: /^\W*(?:BAR(?:GELD)?|GEGEBEN)\b/ },
  {
    kind: 'tender',
    language: 'de',
    pattern: /^\W*(?:EC[- ]?KARTE|GIROCARD|KARTE|KARTENZAHLUNG|GEZAHLT)\b/,
  },
  { kind: 'cash', language: 'fr', pattern: /^\W*ESPECES\b/ },
  { kind: 'cash', language: 'lv', pattern: /^\W*(?:SK\.? ?NAUDA|SKAIDRA NAUDA|SKAIDRAS NAUDA)\b/ },
  { kind: 'tender', language: 'lv', pattern: /^\W*(?:MAKSAJUMU KARTE|BANKAS KARTE|SAMAKSATS)\b/ },
  { kind: 'tender', language: 'fr', pattern: /^\W*(?:CB|CARTE(?: BANCAIRE| BLEUE)?|PAYE|REGLEMENT|CHEQUE)\b/ },
  { kind: 'tender', pattern: /^\W*(?:VISA|MASTERCARD|MASTER CARD|MC|AMEX|AMERICAN EXPRESS|DISCOVER|MAESTRO|V PAY)\b/ },
  { kind: 'deposit', language: 'en', pattern: /\b(?:BOTTLE )?DEPOSIT\b/ },
  { kind: 'deposit', language: 'de', pattern: /\b(?:PFAND|LEERGUT)\b/ },
  { kind: 'deposit', language: 'fr', pattern: /\bCONSIGNE\b/ },
  // "Serv Charge 10% 4.96", "SVC CHG": a service charge printed short.
  { kind: 'tip', language: 'en', pattern: /^\W*(?:TIP|GRATUITY|SERVICE(?: CHARGE)?|(?:SERV|SVC)\.? (?:CHARGE|CHG))\b/ },
  { kind: 'tip', language: 'de', pattern: /^\W*(?:TRINKGELD|BEDIENUNG)\b/ },
  { kind: 'tip', language: 'fr', pattern: /^\W*(?:POURBOIRE|SERVICE)\b/ },
  { kind: 'rounding', language: 'en', pattern: /^\W*ROUNDING\b/ },
  { kind: 'rounding', language: 'de', pattern: /^\W*RUNDUNG\b/ },
  { kind: 'rounding', language: 'fr', pattern: /^\W*ARRONDI\b/ },
];

/**
 * The wordings as matched: the OCR often drops the spaces between a label's words ("TOTALTOPAY",
 * "APAYER", "SalesTax6.88%", "SUMMEEUR"), so every space is optional and a word ends where its
 * letters end, digits or a currency code after it.
 */
const LETTER_BOUNDARY = String.raw`(?:(?<![A-Z])(?=[A-Z])|(?<=[A-Z])(?![A-Z])|(?<=[A-Z])(?=(?:EUR|GBP|USD|AED)(?![A-Z])))`;
const TOLERANT_WORDINGS = WORDINGS.map((wording) => ({
  ...wording,
  pattern: new RegExp(wording.pattern.source.replace(/ /g, ' ?').replace(/\\b/g, LETTER_BOUNDARY)),
}));

/** Digits the OCR reads for letters inside a word ("T0TAL", "SUBT0TAL"), and TOTAL's L read as an I ("TOTAI"). */
function withLetters(plain: string): string {
  return withLettersForDigits(plain).replace(/\bTOTA[I1|]\b/g, 'TOTAL');
}

/** Label words long enough that one misread letter cannot make another word of them. */
const LONG_LABEL_WORDS = [
  'SUBTOTAL',
  'ZWISCHENSUMME',
  'GESAMTBETRAG',
  'AMOUNT',
  'BALANCE',
  'CHANGE',
  'RUCKGELD',
  'ESPECES',
  'MONTANT',
  'DISCOUNT',
  'SAVINGS',
  'ROUNDING',
];

/**
 * A row's first word misread by a letter ("ZWISCHENSUHME", "ANOUNT DUE") as the label word it
 * nearly is; and TOTAL, short but printed on nearly every receipt, misread by one letter on a faint
 * print ("TATAL", "TOTAE", "LOTAL", "TORAL", "TOTA"): no other word of a receipt's foot is that near it.
 */
function withLabelWordRestored(plain: string): string {
  return plain
    .replace(/^(\W*)([A-Z]{6,})/, (whole, lead: string, word: string) => {
      const near = misreadingOf(word, LONG_LABEL_WORDS, (label) => (label.length >= 10 ? 2 : 1));
      return near ? `${lead}${near}` : whole;
    })
    .replace(/^(\W*)([A-Z]{4,5})(?![A-Z])/, (whole, lead: string, word: string) =>
      editDistance(word, 'TOTAL') === 1 ? `${lead}TOTAL` : whole,
    );
}

/** The label a row's text begins with (or, for discounts, savings, taxes and deposits, holds). */
export function labelOf(text: string): Label | undefined {
  const plain = withLabelWordRestored(withLetters(plainText(text)));
  const wording = TOLERANT_WORDINGS.find(({ pattern }) => pattern.test(plain));
  if (!wording) return undefined;
  return wording.language ? { kind: wording.kind, language: wording.language } : { kind: wording.kind };
}
