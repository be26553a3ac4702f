import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareImage, UnreadableImageError } from '../../shared/receipts/ocr/prepare-image.js';

const plain = { maxSide: 2000, minSide: 0, normalise: false, median: 0, cropToContent: false };
const blank = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#f0f0f0' } });

// docs/receipts.md#image-preparation: "turned upright by its EXIF orientation … its longest side is capped at 2000 px".
describe('preparing a receipt image', () => {
  it("turns a phone's sideways photo upright by its EXIF orientation", async () => {
    const sideways = await blank(300, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await prepareImage(sideways, plain)).toMatchObject({ width: 100, height: 300 });
  });

  it('keeps a sliver at least a pixel wide when it shrinks it', async () => {
    expect(await prepareImage(await blank(20_000, 1).png().toBuffer(), plain)).toMatchObject({
      width: 2000,
      height: 1,
    });
  });

  it('names an image it cannot decode as such, for every attempt would fail the same', async () => {
    const truncated = (await blank(300, 300).jpeg().toBuffer()).subarray(0, 300);
    await expect(prepareImage(truncated, plain)).rejects.toBeInstanceOf(UnreadableImageError);
    await expect(prepareImage(Buffer.from('not an image at all'), plain)).rejects.toThrow(/could not be decoded/);
  });

  it('shrinks a large photo to the cap, keeping its proportions, and gives three bytes a pixel', async () => {
    const prepared = await prepareImage(await blank(3000, 1200).png().toBuffer(), plain);
    expect(prepared).toMatchObject({ width: 2000, height: 800 });
    expect(prepared.pixels.length).toBe(2000 * 800 * 3);
  });

  it('enlarges a small image when asked, and keeps three channels after stretching grey levels', async () => {
    const prepared = await prepareImage(await blank(400, 200).png().toBuffer(), {
      ...plain,
      minSide: 1000,
      normalise: true,
    });
    expect(prepared).toMatchObject({ width: 1000, height: 500 });
    expect(prepared.pixels.length).toBe(1000 * 500 * 3);
  });
});
