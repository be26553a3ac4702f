import { amountsIn } from './amounts.js';
import { plainText } from './fold-text.js';
import { GB_POSTCODE, MALAY_STREET, MALAYSIAN_STATES } from './header.js';
import { labelOf, type Language } from './labels.js';

export type Country = 'GB' | 'US' | 'DE' | 'FR' | 'AE' | 'MY' | 'SG' | 'LV';

export interface Locale {
  /** ISO 4217, with how sure the evidence makes it. */
  currency?: { value: string; confidence: number };
  country?: Country;
  /** Whether "04/05/2025" is the 4th of May; unknown without evidence of the country. */
  dayFirst?: boolean;
  /** With how sure the evidence makes it: the labels' agreement, or the country alone. */
  language?: { value: Language; confidence: number };
}

/** A language implied by the country alone, no label worded in it: English is printed in Dubai and Paris too. */
const LANGUAGE_BY_COUNTRY = 0.6;
/** However many labels agree, their wording could be a chain's house style. */
const LANGUAGE_BY_LABELS = 0.95;

const CURRENCY_OF_MARK: Record<string, string> = {
  '£': 'GBP',
  GBP: 'GBP',
  $: 'USD',
  USD: 'USD',
  '€': 'EUR',
  EUR: 'EUR',
  AED: 'AED',
  DH: 'AED',
  DHS: 'AED',
  RM: 'MYR',
  MYR: 'MYR',
  S$: 'SGD',
  SGD: 'SGD',
};
/**
 * Countries whose tills print a bare "$" for their own money: Singapore's dollar, and the ringgit
 * on some Malaysian tills ("Total Amount: $8.20" under a Johor address). Elsewhere a "$" is the
 * US dollar's.
 */
const DOLLAR_SIGN_OF_COUNTRY = new Set<Country>(['MY', 'SG']);
const CURRENCY_OF_COUNTRY: Record<Country, string> = {
  GB: 'GBP',
  US: 'USD',
  DE: 'EUR',
  FR: 'EUR',
  AE: 'AED',
  MY: 'MYR',
  SG: 'SGD',
  LV: 'EUR',
};
const LANGUAGE_OF_COUNTRY: Record<Country, Language> = {
  GB: 'en',
  US: 'en',
  DE: 'de',
  FR: 'fr',
  AE: 'en',
  MY: 'en',
  SG: 'en',
  LV: 'lv',
};

/**
 * Signs of the country a receipt was printed in: address and postcode (printed with or without
 * its space, or with a dot read for it), phone prefix, the tax's name, number and usual rate. A
 * British VAT number is nine digits grouped 3-4-2, with or without its label's "Reg" or "No" (the
 * Emirates' TRN has 15); the tax's name counts glued to its rate too ("MwSt19%", "dont TVA20%":
 * the engine drops narrow spaces). "VAT 5%" is no sign: it is the Emirates' only rate and Britain's reduced
 * one, printed beside "VAT 20%" on many British receipts.
 */
const COUNTRY_SIGNS: [Country, RegExp][] = [
  [
    'GB',
    new RegExp(
      String.raw`\b(?:UNITED KINGDOM|UK|ENGLAND|SCOTLAND|WALES|LONDON)\b|\+44\b|${GB_POSTCODE.source}|\b[A-Z]{1,2}\d[A-Z\d]?\.\d[A-Z]{2}\b|\bVAT ?(?:REG|NO)|\bVAT(?:\b\D{0,12}?)?(?:GB ?)?\d{3}[ .]?\d{4}[ .]?\d{2}\b|\bVAT ?20(?:\.0)? ?%`,
    ),
  ],
  ['US', /\b(?:USA|UNITED STATES)\b|\bSALES ?TAX|\+1[ -]\d|, ?[A-Z]{2} ?\d{5}(?:-\d{4})?\b|\(\d{3}\) ?\d{3}-\d{4}/],
  [
    'DE',
    /\b(?:DEUTSCHLAND|GERMANY|BERLIN|MUNCHEN|HAMBURG|KOLN|FRANKFURT|MWST|UST-?ID|STEUERNR|STRASSE)\b|\bMWST(?=\d)|\+49\b|STR\./,
  ],
  ['FR', /\b(?:FRANCE|PARIS|LYON|MARSEILLE|TVA|SIRET|SIREN|RUE|AVENUE DE|BOULEVARD)\b|TVA(?=\d)|\+33\b/],
  ['AE', /\b(?:UAE|U\.A\.E|UNITED ARAB EMIRATES|DUBAI|ABU DHABI|SHARJAH|TRN|AED|DHS?)\b|\+971\b/],
  [
    'MY',
    new RegExp(
      [
        String.raw`\b(?:MALAYSIA|SDN\.? ?BHD|BHD|S\/B|KUALA LUMPUR|PUTRAJAYA|PULAU PINANG|NEGERI SEMBILAN|${[...MALAYSIAN_STATES, ...MALAY_STREET].join('|')}|SST|GST ?(?:REG|ID))\b|\+60\b|\bRM ?\d`,
        // Glued by the engine to the number before and the word after: "NO.59JALANPERMAS9/6",
        // "81760JOHORBAHRU"; "KUALASELANGOR". Not a name that begins alike ("TAMANNA", "JALANDHAR").
        String.raw`(?<=\d)(?:JALAN|TAMAN|JOHOR|KUALA)(?=[A-Z])|SELANGOR`,
        // A company's registration number, in brackets, after its label or on a row of its own
        // ("(002107265-V)", "<484297-M>", "BRNo.:0195932-X", "JM0325955-V"), and the GST number, 12 digits from 00.
        String.raw`[(<] ?\d{6,9}-[A-Z] ?[)>]|\b(?:BRN?|ROC|CO)\b.{0,8}?\d{6,9}-[A-Z]\b|^\W*(?:[A-Z]{2})?\d{6,9}-[A-Z]\W*$`,
        String.raw`\bGST.{0,12}?\b00\d{10}\b`,
      ].join('|'),
    ),
  ],
  ['SG', /\b(?:SINGAPORE|PTE\.? ?LTD|UEN)\b|\+65\b|\bS\$ ?\d/],
  ['LV', /\b(?:LATVIJA|LATVIA|RIGA|SIA|PVN|KOPA|SUMMA|APMAKSAI|ATLIKUMS|KASES)\b|\+371\b|\bLV-?\d{4}\b/],
];

/**
 * A British postcode the engine glued to its town ("ChesterCH1 2HQ"): only the change of case
 * shows where it starts, so this one reads the text as printed, not folded to capitals.
 */
const GLUED_GB_POSTCODE = /[a-z][A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/;

/**
 * Reads the receipt's locale from its own evidence: the currency printed beside amounts decides
 * the currency outright; otherwise the country (address, phone prefix, the tax's name) implies
 * it, with less confidence. The country decides whether dates are day first (everywhere here but
 * the US). The language is the one most of the labels are worded in.
 */
export function readLocale(texts: string[]): Locale {
  const marks = new Map<string, number>();
  let dollarSigns = 0;
  const countries = new Map<Country, number>();
  const languages = new Map<Language, number>();
  for (const text of texts) {
    for (const amount of amountsIn(text)) {
      const currency = amount.currency && CURRENCY_OF_MARK[amount.currency.toUpperCase()];
      if (currency) marks.set(currency, (marks.get(currency) ?? 0) + 1);
      if (amount.currency === '$') dollarSigns += 1;
    }
    const plain = plainText(text);
    for (const code of plain.match(/\b(?:GBP|USD|EUR|AED|MYR|SGD)\b/g) ?? [])
      marks.set(CURRENCY_OF_MARK[code]!, (marks.get(CURRENCY_OF_MARK[code]!) ?? 0) + 1);
    for (const [country, sign] of COUNTRY_SIGNS)
      if (sign.test(plain) || (country === 'GB' && GLUED_GB_POSTCODE.test(text)))
        countries.set(country, (countries.get(country) ?? 0) + 1);
    const language = labelOf(text)?.language;
    if (language) languages.set(language, (languages.get(language) ?? 0) + 1);
  }
  const country = leader(countries);
  if (country && dollarSigns && DOLLAR_SIGN_OF_COUNTRY.has(country)) {
    const usd = marks.get('USD')! - dollarSigns;
    if (usd) marks.set('USD', usd);
    else marks.delete('USD');
    const own = CURRENCY_OF_COUNTRY[country];
    marks.set(own, (marks.get(own) ?? 0) + dollarSigns);
  }
  const marked = leader(marks);
  // "$" is printed by every dollar country; a Dhs or € elsewhere on the page outweighs it.
  const currency = marked
    ? { value: marked, confidence: marks.size === 1 ? 0.95 : 0.7 }
    : country
      ? { value: CURRENCY_OF_COUNTRY[country], confidence: 0.75 }
      : undefined;
  const worded = leader(languages);
  const votes = [...languages.values()].reduce((total, count) => total + count, 0);
  const language = worded
    ? { value: worded, confidence: LANGUAGE_BY_LABELS * (languages.get(worded)! / votes) }
    : country
      ? { value: LANGUAGE_OF_COUNTRY[country], confidence: LANGUAGE_BY_COUNTRY }
      : undefined;
  const dayFirst = dayOrder(country, marked);
  return {
    ...(currency ? { currency } : {}),
    ...(country ? { country } : {}),
    ...(dayFirst !== undefined ? { dayFirst } : {}),
    ...(language ? { language } : {}),
  };
}

/**
 * Whether dates are day first: everywhere here but the US, by the country's signs, else by the
 * currency printed. When the two disagree (a "$" receipt whose stock code looks like a British
 * postcode, "SKU W1 2AB") one of them is wrong and nothing says which, so the order is left
 * undecided and a date that reads both ways is left out.
 */
function dayOrder(country: Country | undefined, markedCurrency: string | undefined): boolean | undefined {
  const byCountry = country === undefined ? undefined : country !== 'US';
  const byCurrency = markedCurrency === undefined ? undefined : markedCurrency !== 'USD';
  if (byCountry !== undefined && byCurrency !== undefined && byCountry !== byCurrency) return undefined;
  return byCountry ?? byCurrency;
}

/** The key counted most often, when one is counted more than any other. */
function leader<T>(counts: Map<T, number>): T | undefined {
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (!ranked.length || (ranked.length > 1 && ranked[0]![1] === ranked[1]![1])) return undefined;
  return ranked[0]![0];
}
