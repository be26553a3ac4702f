import sharp, { type Sharp } from 'sharp';
import { contentBox, type GreyImage, type Region } from './content-box.js';
import { skewAngle } from './deskew.js';

/**
 * What is done to a receipt image before an engine reads it. Every step was measured on its own
 * (test/bench/ocr-engine-comparison.ts, figures in docs/performance.md#ocr); a step stays on by default only
 * where it helped.
 */
export interface ImagePreparation {
  /** The longest side, in pixels, an image is shrunk to: a phone photo of 3000–4000 px costs the detector seconds and reads no better. */
  maxSide: number;
  /** Images whose longest side is below this are enlarged to it: a low-resolution scan's letters are too small for either engine. */
  minSide: number;
  /** Grey levels, stretched so the darkest ink is black and the paper white: faded thermal paper gains contrast. */
  normalise: boolean;
  /** A median filter of this size (3 or 5) against speckles; 0 for none. */
  median: number;
  /** Cut the image to where its print is (contentBox): a till receipt scanned on a whole page. */
  cropToContent: boolean;
}

/**
 * The longest side of the copy the print, and the slope of its rows, are looked for on: a line of
 * small print still darkens its cells, and a tenth of a degree moves a row's end by a pixel.
 */
const SEARCH_SIDE = 1000;
/**
 * A slope under this, in degrees, is left: a row's ends differ by less than half a row across a
 * receipt, which the detector reads as one line, and turning the page blurs every letter a little.
 */
const LEVEL_ENOUGH = 0.7;

/**
 * An image sharp cannot decode (truncated, corrupt, not an image at all): the same bytes fail every
 * time, so the claim goes to a person at once instead of after five fetches and reads.
 */
export class UnreadableImageError extends Error {
  constructor(cause: unknown) {
    super(`the image could not be decoded (${(cause as Error).message})`, { cause });
    this.name = 'UnreadableImageError';
  }
}

export interface PreparedImage {
  /** RGB, 3 bytes a pixel, rows top to bottom. */
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * Turns the image (any format sharp reads) upright by its EXIF orientation (a phone's photo is
 * stored sideways with a tag saying so), then applies the preparation. The engines' boxes are in
 * the prepared image's pixels.
 */
export async function prepareImage(image: Buffer, preparation: ImagePreparation): Promise<PreparedImage> {
  try {
    return await prepare(image, preparation);
  } catch (error) {
    throw new UnreadableImageError(error);
  }
}

async function prepare(image: Buffer, preparation: ImagePreparation): Promise<PreparedImage> {
  const { width = 0, height = 0, orientation = 1 } = await sharp(image, { failOn: 'error' }).metadata();
  // The stored size; EXIF orientations 5 to 8 are quarter turns, which swap it.
  const upright = orientation >= 5 ? { width: height, height: width } : { width, height };
  const crop = preparation.cropToContent ? await printedRegion(image, upright) : undefined;
  const [uprightWidth, uprightHeight] = crop ? [crop.width, crop.height] : [upright.width, upright.height];
  const longest = Math.max(uprightWidth, uprightHeight);
  const scale =
    longest > preparation.maxSide
      ? preparation.maxSide / longest
      : longest < preparation.minSide
        ? preparation.minSide / longest
        : 1;
  let pipeline = sharp(image, { failOn: 'error' }).rotate();
  if (crop) pipeline = pipeline.extract(crop);
  if (scale !== 1) {
    pipeline = pipeline.resize({
      // A sliver (20000 × 1) scaled down would round a side to nothing.
      width: Math.max(1, Math.round(uprightWidth * scale)),
      height: Math.max(1, Math.round(uprightHeight * scale)),
      kernel: scale < 1 ? 'lanczos3' : 'cubic',
    });
  }
  if (preparation.median > 0) pipeline = pipeline.median(preparation.median);
  if (preparation.normalise) pipeline = pipeline.greyscale().normalise();
  const { data, info } = await pipeline.flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  return {
    pixels: info.channels === 3 ? data : threeChannels(data, info.channels),
    width: info.width,
    height: info.height,
  };
}

/**
 * A prepared image turned by its rows' slope (skewAngle), when they slope enough to matter, the
 * corners filled white: a receipt photographed askew.
 */
export async function levelled(image: PreparedImage): Promise<PreparedImage> {
  const raw = { raw: { width: image.width, height: image.height, channels: 3 as const } };
  const angle = skewAngle(await searchCopy(sharp(image.pixels, raw)));
  if (Math.abs(angle) < LEVEL_ENOUGH) return image;
  const turned = await sharp(image.pixels, raw)
    .rotate(-angle, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: turned.data, width: turned.info.width, height: turned.info.height };
}

/** A grey copy at most SEARCH_SIDE long, its levels stretched: what the print and its slope are looked for on. */
async function searchCopy(pipeline: Sharp): Promise<GreyImage> {
  const { data, info } = await pipeline
    .greyscale()
    .resize({ width: SEARCH_SIDE, height: SEARCH_SIDE, fit: 'inside', withoutEnlargement: true })
    .normalise()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/** RGB from grey (sharp keeps a greyscale image at one channel), or from grey and alpha. */
function threeChannels(pixels: Buffer, channels: number): Buffer {
  const rgb = Buffer.alloc((pixels.length / channels) * 3);
  for (let from = 0, to = 0; from < pixels.length; from += channels, to += 3) rgb.fill(pixels[from]!, to, to + 3);
  return rgb;
}

/** contentBox's region on a smaller grey copy, in the upright image's pixels. */
async function printedRegion(image: Buffer, upright: { width: number; height: number }): Promise<Region | undefined> {
  // A transparent margin is paper, not ink.
  const copy = await searchCopy(sharp(image, { failOn: 'error' }).rotate().flatten({ background: '#ffffff' }));
  const region = contentBox(copy);
  if (!region) return undefined;
  const [scaleX, scaleY] = [upright.width / copy.width, upright.height / copy.height];
  const left = Math.floor(region.left * scaleX);
  const top = Math.floor(region.top * scaleY);
  const right = Math.min(upright.width, Math.ceil((region.left + region.width) * scaleX));
  const bottom = Math.min(upright.height, Math.ceil((region.top + region.height) * scaleY));
  return { left, top, width: right - left, height: bottom - top };
}
