/**
 * The figures the perceptual hash's threshold was chosen from (docs/performance.md#perceptual-hash):
 * Hamming distances between each receipt image and its copies (re-encoded, resized, cropped,
 * rotated), and between different receipts, above all receipts of one shop (the generated set's
 * merchants, and the first fixtures, drawn by one renderer). Each image is prepared as the default
 * engine prepares it, since the worker hashes what it reads.
 *
 *   npx tsx test/bench/perceptual-hash-distances.ts            # the repository's fixtures
 *   npx tsx test/bench/perceptual-hash-distances.ts --sroie D  # also SROIE receipts 000–199 from D/data/img
 *
 * SROIE images are read from a local checkout (docs/receipts.md says how to get one), never committed,
 * and only ids 000–199.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hammingDistance, perceptualHash } from '../../shared/receipts/ocr/perceptual-hash.js';
import { PADDLE_DEFAULTS } from '../../shared/receipts/ocr/paddle-reader.js';
import { prepareImage } from '../../shared/receipts/ocr/prepare-image.js';
import { DUPLICATE_IMAGE_MAX_DISTANCE } from '../../shared/receipts/similar-image.js';
import { copiesOf } from '../fixtures/receipts/receipt-copies.js';
import { receiptSet } from '../fixtures/receipts/receipt-set.js';
import { percentile } from './stats.js';

const { values } = parseArgs({ options: { sroie: { type: 'string' } } });
const FIXTURES = join(import.meta.dirname, '../fixtures/receipts');

interface Source {
  name: string;
  /** Receipts of one group are different receipts of one shop or one layout. */
  group: string;
  path: string;
}

const sources: Source[] = [
  ...readdirSync(FIXTURES)
    .filter((file) => file.endsWith('.png'))
    .map((file) => ({ name: file, group: 'first fixtures', path: join(FIXTURES, file) })),
  ...receiptSet().map((receipt) => ({ name: receipt.file, group: receipt.truth.merchantName, path: receipt.path })),
  ...(values.sroie
    ? Array.from({ length: 200 }, (_, id) => String(id).padStart(3, '0')).map((id) => ({
        name: `sroie ${id}`,
        group: `sroie ${id}`,
        path: join(values.sroie!, 'data/img', `${id}.jpg`),
      }))
    : []),
];

const print = (line: string) => process.stdout.write(`${line}\n`);
const hashOf = async (image: Buffer) => perceptualHash(await prepareImage(image, PADDLE_DEFAULTS.preparation));

const hashes: string[] = [];
const copyDistances = new Map<string, number[]>();
// The hash's cost is printed beside the preparation's, timed in the same run on the same images:
// the machine's speed moves between runs, the ratio much less.
const hashMs: number[] = [];
const prepareMs: number[] = [];
for (const source of sources) {
  const image = readFileSync(source.path);
  const preparing = performance.now();
  const prepared = await prepareImage(image, PADDLE_DEFAULTS.preparation);
  const started = performance.now();
  const hash = await perceptualHash(prepared);
  prepareMs.push(started - preparing);
  hashMs.push(performance.now() - started);
  hashes.push(hash);
  for (const [copy, bytes] of Object.entries(await copiesOf(image))) {
    const distances = copyDistances.get(copy) ?? [];
    distances.push(hammingDistance(hash, await hashOf(bytes)));
    copyDistances.set(copy, distances);
  }
}

const sameShop: number[] = [];
const otherShops: number[] = [];
let closest = { distance: Infinity, pair: '' };
for (let one = 0; one < sources.length; one++)
  for (let other = one + 1; other < sources.length; other++) {
    const distance = hammingDistance(hashes[one]!, hashes[other]!);
    (sources[one]!.group === sources[other]!.group ? sameShop : otherShops).push(distance);
    if (distance < closest.distance) closest = { distance, pair: `${sources[one]!.name} and ${sources[other]!.name}` };
  }

const summary = (distances: number[]) =>
  `median ${percentile(distances, 0.5)}, 95th ${percentile(distances, 0.95)}, max ${Math.max(...distances)}`;
const within = (distances: number[]) =>
  `${distances.filter((distance) => distance <= DUPLICATE_IMAGE_MAX_DISTANCE).length}/${distances.length}`;
print(`${sources.length} images; Hamming distances of 256 bits; threshold ${DUPLICATE_IMAGE_MAX_DISTANCE}`);
print('copies of the same receipt (within the threshold | distances):');
for (const [copy, distances] of copyDistances)
  print(`  ${copy.padEnd(28)} ${within(distances).padEnd(9)} | ${summary(distances)}`);
const allCopies = [...copyDistances.values()].flat();
print(`  ${'every copy'.padEnd(28)} ${within(allCopies).padEnd(9)} | ${summary(allCopies)}`);
print('different receipts (within the threshold | distances):');
print(
  `  ${'same shop or layout'.padEnd(28)} ${within(sameShop).padEnd(9)} | min ${Math.min(...sameShop)}, 1st ${percentile(sameShop, 0.01)}, median ${percentile(sameShop, 0.5)}`,
);
print(
  `  ${'other shops'.padEnd(28)} ${within(otherShops).padEnd(9)} | min ${Math.min(...otherShops)}, 1st ${percentile(otherShops, 0.01)}, median ${percentile(otherShops, 0.5)}`,
);
print(`  closest pair: ${closest.pair}, ${closest.distance}`);
print(`hash of a prepared image: ${summary(hashMs.map((ms) => Math.round(ms)))} ms`);
print(
  `  beside the image's preparation (decoded, at most 2000 px): ${summary(prepareMs.map((ms) => Math.round(ms)))} ms`,
);
