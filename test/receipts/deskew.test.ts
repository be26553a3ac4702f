import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { GreyImage } from '../../shared/receipts/ocr/content-box.js';
import { skewAngle } from '../../shared/receipts/ocr/deskew.js';
import { lettersAndDigits } from '../../shared/receipts/ocr/parse/fold-text.js';
import { parseReceipt } from '../../shared/receipts/ocr/parse/parse-receipt.js';
import { PADDLE_DEFAULTS, PaddleReader } from '../../shared/receipts/ocr/paddle-reader.js';
import { levelled, prepareImage } from '../../shared/receipts/ocr/prepare-image.js';
import { receiptSet } from '../fixtures/receipts/receipt-set.js';

/** A receipt's print: rows of "words" (dark bars) on white paper, a description on the left and a price on the right. */
function printedPage(): { pixels: Buffer; width: number; height: number } {
  const [width, height] = [420, 700];
  const pixels = Buffer.alloc(width * height, 245);
  for (let top = 40; top < height - 40; top += 28)
    for (let y = top; y < top + 12; y++)
      for (let x = 30; x < width - 30; x++) {
        const inDescription = x < 200 && (x - 30) % 36 < 28;
        const inPrice = x > 320 && (x - 320) % 14 < 9;
        if (inDescription || inPrice) pixels[y * width + x] = 25;
      }
  return { pixels, width, height };
}

/** The page photographed turned by `angle` degrees (clockwise), on a dark table. */
async function photographed(angle: number): Promise<Buffer> {
  const page = printedPage();
  return sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 } })
    .rotate(angle, { background: '#383838' })
    .png()
    .toBuffer();
}

async function grey(image: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(image).greyscale().normalise().raw().toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

const plain = { maxSide: 2000, minSide: 0, normalise: false, median: 0, cropToContent: false };

// Issue 32, Read better: "image preparation for real photos and scans (find the paper, deskew, …)".
describe('turning a page photographed askew level', () => {
  it.each([4, -6, 9.5])(
    'measures the slope of rows turned %s degrees, the dark table around the paper aside',
    async (angle) => {
      expect(skewAngle(await grey(await photographed(angle)))).toBeCloseTo(angle, 0);
    },
  );

  it('measures a level page, and a blank one, as level', async () => {
    expect(skewAngle(await grey(await photographed(0)))).toBe(0);
    const blank = { pixels: new Uint8Array(200 * 300).fill(240), width: 200, height: 300 };
    expect(skewAngle(blank)).toBe(0);
  });

  it('turns a page askew level, and leaves a level one as it is', async () => {
    const turned = await levelled(await prepareImage(await photographed(5), plain));
    const rows = await sharp(turned.pixels, { raw: { width: turned.width, height: turned.height, channels: 3 } })
      .png()
      .toBuffer();
    expect(Math.abs(skewAngle(await grey(rows)))).toBeLessThan(0.7);
    const level = await prepareImage(await photographed(0), plain);
    expect(await levelled(level)).toBe(level);
  });
});

// Issue 32: on the hard generated receipts, "descriptions paired with the next row's price on
// skewed images": the detector read "Screenwash 5L 2.85A" as one line.
describe('reading a receipt photographed askew', () => {
  const reader = new PaddleReader(PADDLE_DEFAULTS);
  afterAll(() => reader.close());

  it('pairs each item with its own price', async () => {
    const receipt = receiptSet('tune').find((labelled) => labelled.file === '092-gb-kestrel-fuels-kingsway.jpg')!;
    expect(receipt.features).toContain('rotation');
    const parsed = parseReceipt(await reader.readText(readFileSync(receipt.path)));
    // The engine drops the odd space ("Screenwash5L"); no reader would call that a misreading.
    const read = parsed.lineItems.map((item) => [lettersAndDigits(item.description ?? ''), item.totalPrice]);
    const printed = receipt.truth.lineItems!.map((item) => [lettersAndDigits(item.description), item.totalPrice]);
    expect(read).toEqual(printed);
  });
});
