import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { COUNTRIES } from '../fixtures/receipts/generator/countries.js';
import { DATE_FORMATS, formatAmount, type DateFormat } from '../fixtures/receipts/generator/formats.js';
import { receiptSet, type GeneratedReceipt } from '../fixtures/receipts/receipt-set.js';
import { withoutCurrencyMark, type KeyToken } from './ocr-key-tokens.js';

export interface BenchReceipt {
  path: string;
  tokens: KeyToken[];
  /** The image as the engine gets it. */
  image(): Promise<Buffer>;
}

export const BENCH_SETS = ['fixtures', 'tune', 'large'] as const;
export type BenchSet = (typeof BENCH_SETS)[number];

interface FixtureSpec {
  file: string;
  dateLine: string;
  items: [string, string][];
  footer: [string, string][];
  truth: { merchantName: string };
}

/** A date as the fixtures print it: ISO, dotted, slashed, dashed, or with the month's name. */
const PRINTED_DATE =
  /\d{4}[-.]\d{2}[-.]\d{2}|\d{2}[/-]\d{2}[/-]\d{4}|\d{1,2} [A-Z][a-z]{2} \d{4}|[A-Z][a-z]{2} \d{1,2}, \d{4}/;

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/receipts');

/** The shipped fixtures' tokens, from the text each image was drawn from (receipts.json). */
function fixtureReceipts(): BenchReceipt[] {
  const specs = JSON.parse(readFileSync(join(FIXTURES, 'receipts.json'), 'utf8')) as FixtureSpec[];
  return specs.map((spec) => {
    const total = spec.footer.find(([label]) => /total/i.test(label) && !/sub/i.test(label))!;
    const path = join(FIXTURES, spec.file);
    return {
      path,
      image: async () => readFileSync(path),
      tokens: [
        { kind: 'total', printed: [withoutCurrencyMark(total[1])] },
        ...spec.items.map(([, price]) => ({ kind: 'price' as const, printed: [withoutCurrencyMark(price)] })),
        { kind: 'date', printed: [PRINTED_DATE.exec(spec.dateLine)![0]] },
        ...spec.truth.merchantName.split(/\s+/).map((word) => ({ kind: 'merchant' as const, printed: [word] })),
      ],
    };
  });
}

/**
 * A generated receipt's tokens as it prints them: amounts in each of its country's amount styles
 * (the set does not record which one a French receipt drew), the date in the format its features
 * name (generator/formats.ts).
 */
function generatedTokens(receipt: GeneratedReceipt): KeyToken[] {
  const { truth } = receipt;
  const country = COUNTRIES[receipt.country as keyof typeof COUNTRIES];
  const amount = (value: number) => [
    ...new Set(country.amountStyles.map((style) => formatAmount(Math.round(value * 100), style))),
  ];
  const dateFormat = receipt.features
    .find((feature) => feature.startsWith('date:'))!
    .slice('date:'.length) as DateFormat;
  const [year, month, day] = truth.serviceDate.split('-').map(Number) as [number, number, number];
  return [
    { kind: 'total', printed: amount(truth.total) },
    ...truth.lineItems.map((item) => ({ kind: 'price' as const, printed: amount(item.totalPrice) })),
    { kind: 'date', printed: [DATE_FORMATS[dateFormat]({ year, month, day })] },
    ...truth.merchantName.split(/\s+/).map((word) => ({ kind: 'merchant' as const, printed: [word] })),
    ...(truth.transactionId ? [{ kind: 'transaction' as const, printed: [truth.transactionId] }] : []),
  ];
}

/** The longest side of a phone's photo of a receipt, give or take. */
const PHOTO_SIDE = 3600;
/** How many tune receipts the `large` set enlarges to a photo's size: enough for times, not for accuracy. */
const LARGE_RECEIPTS = 12;

/**
 * `fixtures`: the eight shipped images; `tune`: the generated set's tuning split (never the
 * holdout); `large`: some of the tune receipts enlarged to a phone photo's size, to time the
 * preparation's cap on what the detector is given.
 */
export function benchReceipts(set: BenchSet): BenchReceipt[] {
  if (set === 'fixtures') return fixtureReceipts();
  const tune = receiptSet('tune').map((receipt) => ({
    path: receipt.path,
    tokens: generatedTokens(receipt),
    image: async () => readFileSync(receipt.path),
  }));
  if (set === 'tune') return tune;
  return tune.slice(0, LARGE_RECEIPTS).map((receipt) => ({
    ...receipt,
    image: () =>
      sharp(receipt.path)
        .resize({ width: PHOTO_SIDE, height: PHOTO_SIDE, fit: 'inside' })
        .jpeg({ quality: 90 })
        .toBuffer(),
  }));
}
