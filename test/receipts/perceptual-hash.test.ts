import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PADDLE_DEFAULTS } from '../../shared/receipts/ocr/paddle-reader.js';
import { hammingDistance, perceptualHash } from '../../shared/receipts/ocr/perceptual-hash.js';
import { prepareImage } from '../../shared/receipts/ocr/prepare-image.js';
import { DUPLICATE_IMAGE_MAX_DISTANCE } from '../../shared/receipts/similar-image.js';
import { fixtureImage } from '../fixtures/receipts/fixture-image.js';
import { receiptSet } from '../fixtures/receipts/receipt-set.js';
import { copiesOf } from '../fixtures/receipts/receipt-copies.js';

const hashOf = async (image: Buffer) => perceptualHash(await prepareImage(image, PADDLE_DEFAULTS.preparation));

/** Different receipts of one shop: its header, other items and totals (the generated set's merchants). */
const shopReceipts = (merchantName: string) =>
  receiptSet()
    .filter((receipt) => receipt.truth.merchantName === merchantName)
    .map((receipt) => readFileSync(receipt.path));

// Issue 32, "The same receipt twice": another picture of a claimed receipt is DUPLICATE by "a
// perceptual hash of the image (robust to re-compression, resizing, a small crop or rotation)",
// while "two different receipts from the same shop ... must not collide" (docs/receipts.md#automated-checks).
describe('the perceptual hash of a receipt image', () => {
  it('is 256 bits, the same for the same image', async () => {
    const image = fixtureImage('corner-shop.png');
    const hash = await hashOf(image);
    expect(hash).toMatch(/^[01]{256}$/);
    expect(await hashOf(image)).toBe(hash);
  });

  it('puts re-encoded, resized, cropped and rotated copies of a receipt within the threshold', async () => {
    for (const file of ['corner-shop.png', 'pharmacy.png']) {
      const image = fixtureImage(file);
      const hash = await hashOf(image);
      for (const [copy, bytes] of Object.entries(await copiesOf(image)))
        expect(hammingDistance(hash, await hashOf(bytes)), `${file} ${copy}`).toBeLessThanOrEqual(
          DUPLICATE_IMAGE_MAX_DISTANCE,
        );
    }
  });

  it('keeps different receipts of one shop, and of one layout, apart', async () => {
    const groups = [
      shopReceipts('HOLLYBROOK GROCERS'),
      shopReceipts('BRAMBLES PHARMACY'),
      // The first fixtures: one renderer, one font, one layout, different shops and baskets.
      ['corner-shop.png', 'green-grocer.png', 'pharmacy.png', 'cafe-noisy.png'].map(fixtureImage),
    ];
    for (const images of groups) {
      const hashes = await Promise.all(images.map(hashOf));
      for (let one = 0; one < hashes.length; one++)
        for (let other = one + 1; other < hashes.length; other++)
          expect(hammingDistance(hashes[one]!, hashes[other]!)).toBeGreaterThan(DUPLICATE_IMAGE_MAX_DISTANCE);
    }
  });
});
