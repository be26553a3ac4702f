import type { GreyImage } from './content-box.js';

/**
 * A pixel this much darker than the mean of the square around it is ink: letters are thin and dark
 * against the paper about them, while the table or the shadow around a photographed receipt is dark
 * all over and counts for nothing (its edges would otherwise decide the angle).
 */
const INK_CONTRAST = 30;
/** The square's half side, in pixels of the copy searched: a few letters wide. */
const NEIGHBOURHOOD = 12;
/** The steepest tilt looked for, in degrees: a receipt photographed more askew than this is rare. */
const MAX_ANGLE = 12;
/** The first search's step, then the finer one around its best angle, in degrees. */
const COARSE_STEP = 0.5;
const FINE_STEP = 0.1;

/**
 * The angle, in degrees, by which the printed rows of a page slope down to the right (negative
 * when they rise): the one at which the ink, summed along lines of that slope, is most
 * concentrated in few lines (the projection profile's sum of squares is largest), as it is when
 * the lines follow the rows and the gaps between them. 0 on a page with no ink.
 *
 * On a photo taken askew the detector reads a description with the next row's price as one line
 * (issue 32's hard receipts): no grouping of its lines afterwards can pull them apart, so the
 * page is turned level before it is read.
 */
export function skewAngle(image: GreyImage): number {
  const ink = inkPixels(image);
  if (!ink.length) return 0;
  const coarse = bestAngle(ink, image, -MAX_ANGLE, MAX_ANGLE, COARSE_STEP);
  return bestAngle(ink, image, coarse - COARSE_STEP, coarse + COARSE_STEP, FINE_STEP);
}

/** The ink's pixels as x, y pairs. */
function inkPixels(image: GreyImage): Int32Array {
  const { pixels, width, height } = image;
  const sums = integral(image);
  const isInk = new Uint8Array(width * height);
  let count = 0;
  for (let y = 0; y < height; y++) {
    const [top, bottom] = [Math.max(0, y - NEIGHBOURHOOD), Math.min(height, y + NEIGHBOURHOOD + 1)];
    for (let x = 0; x < width; x++) {
      const [left, right] = [Math.max(0, x - NEIGHBOURHOOD), Math.min(width, x + NEIGHBOURHOOD + 1)];
      const area = (bottom - top) * (right - left);
      const total =
        sums[bottom * (width + 1) + right]! -
        sums[top * (width + 1) + right]! -
        sums[bottom * (width + 1) + left]! +
        sums[top * (width + 1) + left]!;
      if (pixels[y * width + x]! * area < total - INK_CONTRAST * area) {
        isInk[y * width + x] = 1;
        count++;
      }
    }
  }
  const ink = new Int32Array(count * 2);
  let next = 0;
  for (let at = 0; at < isInk.length; at++)
    if (isInk[at]) {
      ink[next++] = at % width;
      ink[next++] = Math.floor(at / width);
    }
  return ink;
}

/** The summed-area table: at (y, x) of a (height + 1) × (width + 1) grid, the sum of the pixels above and left of it. */
function integral({ pixels, width, height }: GreyImage): Float64Array {
  const sums = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += pixels[y * width + x]!;
      sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1]! + row;
    }
  }
  return sums;
}

/** Of the angles from `from` to `to` by `step`, the one whose profile is sharpest; the level one on a tie. */
function bestAngle(ink: Int32Array, size: GreyImage, from: number, to: number, step: number): number {
  let best = { angle: 0, sharpness: -1 };
  const steps = Math.round((to - from) / step);
  for (let index = 0; index <= steps; index++) {
    const angle = Math.round((from + index * step) * 100) / 100;
    const sharpness = profileSharpness(ink, size, angle);
    if (sharpness > best.sharpness || (sharpness === best.sharpness && Math.abs(angle) < Math.abs(best.angle)))
      best = { angle, sharpness };
  }
  return best.angle;
}

/** The sum of squares of the ink counted along each line sloping by `angle` degrees. */
function profileSharpness(ink: Int32Array, { width, height }: GreyImage, angle: number): number {
  const slope = Math.tan((angle * Math.PI) / 180);
  // A line's height where it meets the left edge: the page's height, widened by the slope across it.
  const offset = Math.ceil(Math.abs(slope) * width);
  const counts = new Int32Array(height + 2 * offset + 1);
  for (let at = 0; at < ink.length; at += 2) counts[Math.round(ink[at + 1]! - slope * ink[at]!) + offset]! += 1;
  let sum = 0;
  for (const count of counts) sum += count * count;
  return sum;
}
