import sharp from 'sharp';

/**
 * Copies of a receipt image as a second photo or a re-sent file would make them (issue 32, "the
 * same receipt twice"): re-encoded (JPEG q 40 and 90), resized (50%, 150%), cropped (5% off every
 * side, or off the top or the left alone), rotated by ±3° (the corners filled with the image's own
 * corner colour, as the table around a photographed receipt would be), and all at once.
 */
export async function copiesOf(image: Buffer): Promise<Record<string, Buffer>> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const { dominant: corner } = await sharp(image).extract({ left: 0, top: 0, width: 4, height: 4 }).stats();
  const cropped = (left: number, top: number, right: number, bottom: number, from = image) =>
    sharp(from)
      .extract({
        left: Math.round(width * left),
        top: Math.round(height * top),
        width: Math.floor(width * (1 - left - right)),
        height: Math.floor(height * (1 - top - bottom)),
      })
      .png()
      .toBuffer();
  const rotatedBy = (degrees: number, from = image) =>
    sharp(from).rotate(degrees, { background: corner }).png().toBuffer();
  return {
    'JPEG quality 40': await sharp(image).jpeg({ quality: 40 }).toBuffer(),
    'JPEG quality 90': await sharp(image).jpeg({ quality: 90 }).toBuffer(),
    'resized to 50%': await sharp(image)
      .resize({ width: Math.round(width * 0.5) })
      .png()
      .toBuffer(),
    'resized to 150%': await sharp(image)
      .resize({ width: Math.round(width * 1.5) })
      .png()
      .toBuffer(),
    'cropped 5% on every side': await cropped(0.05, 0.05, 0.05, 0.05),
    'cropped 5% at the top': await cropped(0, 0.05, 0, 0),
    'cropped 5% at the left': await cropped(0.05, 0, 0, 0),
    'rotated 3°': await rotatedBy(3),
    'rotated -3°': await rotatedBy(-3),
    'all: crop, -2°, 70%, q 50': await sharp(await rotatedBy(-2, await cropped(0.03, 0.02, 0.01, 0.04)))
      .resize({ width: Math.round(width * 0.7) })
      .jpeg({ quality: 50 })
      .toBuffer(),
  };
}
