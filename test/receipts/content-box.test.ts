import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { contentBox, type GreyImage, type Region } from '../../shared/receipts/ocr/content-box.js';
import { prepareImage } from '../../shared/receipts/ocr/prepare-image.js';

/**
 * A white page of `width` × `height` with lines of "print" (dark bars three pixels high, every
 * ten pixels) filling `receipt`, a dark speck every `speckEvery` pixels over the whole page, as a
 * flatbed's dust leaves, and a solid `stain`.
 */
function scannedPage(width: number, height: number, receipt: Region, speckEvery = 0, stain?: Region): GreyImage {
  const pixels = new Uint8Array(width * height).fill(250);
  if (stain)
    for (let y = stain.top; y < stain.top + stain.height; y += 1)
      pixels.fill(0, y * width + stain.left, y * width + stain.left + stain.width);
  for (let y = receipt.top; y < receipt.top + receipt.height; y += 1) {
    if (y % 10 >= 3) continue;
    for (let x = receipt.left; x < receipt.left + receipt.width; x += 1) if (x % 7 !== 0) pixels[y * width + x] = 20;
  }
  if (speckEvery) for (let at = 0; at < pixels.length; at += speckEvery) pixels[at] = 0;
  return { pixels, width, height };
}

// Issue 32, Read better: "image preparation for real photos and scans (find the paper, …)".
describe('finding the print on a scanned page', () => {
  const receipt = { left: 200, top: 150, width: 300, height: 550 };

  it('finds a receipt scanned on a whole page, with a margin; no speck or lone mark stretches the box', () => {
    // A mark of 6 × 6 pixels in a corner fills a cell of its own, which no other printed cell touches.
    const stain = { left: 640, top: 900, width: 6, height: 6 };
    const box = contentBox(scannedPage(707, 1000, receipt, 997, stain))!;
    expect(box.left).toBeGreaterThanOrEqual(receipt.left - 50);
    expect(box.left).toBeLessThanOrEqual(receipt.left - 10);
    expect(box.top).toBeGreaterThanOrEqual(receipt.top - 60);
    expect(box.top).toBeLessThanOrEqual(receipt.top - 10);
    expect(box.left + box.width).toBeGreaterThanOrEqual(receipt.left + receipt.width + 10);
    expect(box.left + box.width).toBeLessThanOrEqual(receipt.left + receipt.width + 50);
    expect(box.top + box.height).toBeGreaterThanOrEqual(receipt.top + receipt.height + 10);
    expect(box.top + box.height).toBeLessThanOrEqual(receipt.top + receipt.height + 60);
  });

  it('leaves alone a receipt that fills the picture, and a page with no print', () => {
    expect(contentBox(scannedPage(400, 1000, { left: 10, top: 10, width: 380, height: 980 }))).toBeUndefined();
    expect(contentBox(scannedPage(707, 1000, { left: 0, top: 0, width: 0, height: 0 }, 997))).toBeUndefined();
  });

  it('cuts the image to the print before the longest side is capped, upright by its EXIF orientation', async () => {
    const page = scannedPage(1414, 2000, { left: 400, top: 300, width: 600, height: 1100 });
    // Stored sideways with the tag saying so, as a phone keeps a photo: the print is found upright.
    const stored = await sharp(Buffer.from(page.pixels), {
      raw: { width: page.width, height: page.height, channels: 1 },
    })
      .rotate(-90)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const preparation = { maxSide: 1000, minSide: 0, normalise: true, median: 0, cropToContent: true };
    const prepared = await prepareImage(stored, preparation);
    // The print's 600 × 1100 and its margins, shrunk to fit 1000: its height is the capped side.
    expect(prepared.height).toBe(1000);
    expect(prepared.width).toBeGreaterThan(600 * (1000 / 1300));
    expect(prepared.width).toBeLessThan(1000 * (1000 / 1100));
    const uncut = await prepareImage(stored, { ...preparation, cropToContent: false });
    expect(uncut).toMatchObject({ width: 707, height: 1000 });
  });
});
