import sharp from 'sharp';
import { PERCEPTUAL_HASH_BITS } from '../similar-image.js';
import type { PreparedImage } from './prepare-image.js';

/**
 * A perceptual hash of a receipt image, for the DUPLICATE check (docs/receipts.md#automated-checks):
 * another photo or copy of the same receipt (re-encoded, resized, slightly cropped or rotated)
 * hashes within a few bits, two receipts of one shop do not. Figures and the threshold:
 * test/bench/perceptual-hash-distances.ts, docs/performance.md#perceptual-hash.
 *
 * A receipt is tall and mostly paper, and a hash of its grey levels sees mostly paper tone,
 * lighting and the table around it. So the hash sees the print instead: the thin dark strokes
 * (a black top-hat), straightened (deskewed by the rows' projection), ruled lines and the paper's
 * edges left out, trimmed to where the print is, then 8 columns × 32 bands of ink density, each
 * bit saying whether its cell holds more ink than the median cell. The bands are many because
 * receipts of one shop share their header and differ in the items and totals below it.
 */

/** The width the print is looked at: a character is a few pixels, a line of text a row of ink. */
const WORKING_WIDTH = 256;
/** Strokes up to twice this (in working pixels) wide count as print. */
const STROKE_RADIUS = 2;
/** Grey levels a stroke must be darker than the paper around it: paper grain and speckle are lighter. */
const MIN_STROKE_CONTRAST = 16;
/** The image's own border rows and columns: a scanner's or a crop's edge is not print. */
const BORDER = 4;
/** A row or column inked over more than this share is a ruled line or the paper's edge, not text. */
const LINE_COVERAGE = 0.6;
/** The share of ink left outside the print's box on each side: speckles beyond the print. */
const TRIM_SHARE = 0.03;
const MAX_SKEW_DEGREES = 10;
const SKEW_STEP_DEGREES = 0.25;
const GRID_COLUMNS = 8;
const GRID_ROWS = PERCEPTUAL_HASH_BITS / GRID_COLUMNS;

interface InkMap {
  ink: Float32Array;
  width: number;
  height: number;
}

/** The hash as PostgreSQL's bit(256) reads it: 256 characters, '0' or '1'. */
export async function perceptualHash(image: PreparedImage): Promise<string> {
  const map = withoutLines(deskewed(strokes(await workingGrey(image))));
  const grid = smoothed(densityGrid(map, printBox(map)));
  const median = [...grid].sort((a, b) => a - b)[grid.length >> 1]!;
  return Array.from(grid, (density) => (density > median ? '1' : '0')).join('');
}

/** Bits that differ between two hashes. */
export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let bit = 0; bit < a.length; bit++) if (a[bit] !== b[bit]) distance++;
  return distance;
}

async function workingGrey({ pixels, width, height }: PreparedImage): Promise<InkMap> {
  const { data, info } = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .greyscale()
    .resize({ width: WORKING_WIDTH, kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey = new Float32Array(info.width * info.height);
  for (let pixel = 0; pixel < grey.length; pixel++) grey[pixel] = data[pixel * info.channels]!;
  return { ink: grey, width: info.width, height: info.height };
}

/** The black top-hat: how much darker each pixel is than its neighbourhood closed over thin strokes. */
function strokes(grey: InkMap): InkMap {
  const closed = extremum(extremum(grey, Math.max), Math.min);
  const { width, height } = grey;
  const ink = new Float32Array(width * height);
  for (let y = BORDER; y < height - BORDER; y++)
    for (let x = BORDER; x < width - BORDER; x++) {
      const at = y * width + x;
      ink[at] = Math.max(0, closed.ink[at]! - grey.ink[at]! - MIN_STROKE_CONTRAST);
    }
  return { ink, width, height };
}

/** A square max (dilation) or min (erosion) filter of STROKE_RADIUS, one axis then the other. */
function extremum(map: InkMap, pick: (a: number, b: number) => number): InkMap {
  const { width, height } = map;
  const pass = (from: Float32Array, step: number, limit: (at: number) => [number, number]) => {
    const to = new Float32Array(from.length);
    for (let at = 0; at < from.length; at++) {
      const [first, last] = limit(at);
      let value = from[at]!;
      for (let other = first; other <= last; other += step) value = pick(value, from[other]!);
      to[at] = value;
    }
    return to;
  };
  const alongRows = pass(map.ink, 1, (at) => {
    const x = at % width;
    return [at - Math.min(x, STROKE_RADIUS), at + Math.min(width - 1 - x, STROKE_RADIUS)];
  });
  const alongColumns = pass(alongRows, width, (at) => {
    const y = Math.floor(at / width);
    return [at - Math.min(y, STROKE_RADIUS) * width, at + Math.min(height - 1 - y, STROKE_RADIUS) * width];
  });
  return { ink: alongColumns, width, height };
}

/** Turned so its text rows are level: the angle whose row projection is the most peaked. */
function deskewed(map: InkMap): InkMap {
  let best = { angle: 0, peakedness: -1 };
  for (let angle = -MAX_SKEW_DEGREES; angle <= MAX_SKEW_DEGREES; angle += SKEW_STEP_DEGREES) {
    const peakedness = projectionPeakedness(map, Math.tan((angle * Math.PI) / 180));
    if (peakedness > best.peakedness) best = { angle, peakedness };
  }
  return best.angle === 0 ? map : rotated(map, (best.angle * Math.PI) / 180);
}

function projectionPeakedness({ ink, width, height }: InkMap, slope: number): number {
  const rows = new Float64Array(height + width);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const value = ink[y * width + x]!;
      if (value > 0) rows[Math.round(y + width / 2 - x * slope)]! += value;
    }
  return rows.reduce((sum, row) => sum + row * row, 0);
}

/** Nearest-neighbour rotation about the centre, the same size; what comes from outside is blank. */
function rotated({ ink, width, height }: InkMap, radians: number): InkMap {
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const [centreX, centreY] = [width / 2, height / 2];
  const turned = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const fromX = Math.round(cos * (x - centreX) - sin * (y - centreY) + centreX);
      const fromY = Math.round(sin * (x - centreX) + cos * (y - centreY) + centreY);
      if (fromX >= 0 && fromX < width && fromY >= 0 && fromY < height)
        turned[y * width + x] = ink[fromY * width + fromX]!;
    }
  return { ink: turned, width, height };
}

function withoutLines({ ink, width, height }: InkMap): InkMap {
  const kept = Float32Array.from(ink);
  const [rows, columns] = [new Float64Array(height), new Float64Array(width)];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (ink[y * width + x]! > 0) {
        rows[y]! += 1;
        columns[x]! += 1;
      }
  for (let y = 0; y < height; y++) if (rows[y]! > LINE_COVERAGE * width) kept.fill(0, y * width, (y + 1) * width);
  for (let x = 0; x < width; x++)
    if (columns[x]! > LINE_COVERAGE * height) for (let y = 0; y < height; y++) kept[y * width + x] = 0;
  return { ink: kept, width, height };
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Where the print is: TRIM_SHARE of the ink left out on each side, so a crop of the margins changes nothing. */
function printBox({ ink, width, height }: InkMap): Box {
  const [rows, columns] = [new Float64Array(height), new Float64Array(width)];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      rows[y]! += ink[y * width + x]!;
      columns[x]! += ink[y * width + x]!;
    }
  const [top, bottom] = innerSpan(rows);
  const [left, right] = innerSpan(columns);
  return { left, right, top, bottom };
}

/** [first, past last] index of the profile with TRIM_SHARE of its mass beyond each end. */
function innerSpan(profile: Float64Array): [number, number] {
  const margin = TRIM_SHARE * profile.reduce((sum, value) => sum + value, 0);
  let [first, last] = [0, profile.length - 1];
  for (let seen = profile[first]!; seen <= margin && first < last;) seen += profile[++first]!;
  for (let seen = profile[last]!; seen <= margin && last > first;) seen += profile[--last]!;
  return [first, last + 1];
}

/**
 * Each cell averaged with its neighbours (1-2-1 on both axes): a cell whose ink sits on its border
 * with the next, which a shift of a pixel moves across, no longer flips its bit on its own.
 */
function smoothed(grid: Float64Array): Float64Array {
  const at = (row: number, column: number) =>
    grid[Math.min(GRID_ROWS - 1, Math.max(0, row)) * GRID_COLUMNS + Math.min(GRID_COLUMNS - 1, Math.max(0, column))]!;
  return grid.map((_, cell) => {
    const [row, column] = [Math.floor(cell / GRID_COLUMNS), cell % GRID_COLUMNS];
    let sum = 0;
    for (const [dr, wr] of [
      [-1, 1],
      [0, 2],
      [1, 1],
    ] as const)
      for (const [dc, wc] of [
        [-1, 1],
        [0, 2],
        [1, 1],
      ] as const)
        sum += wr * wc * at(row + dr, column + dc);
    return sum / 16;
  });
}

/** Mean ink of each cell of a GRID_COLUMNS × GRID_ROWS grid over the box, rows top to bottom. */
function densityGrid({ ink, width }: InkMap, box: Box): Float64Array {
  const [sums, counts] = [new Float64Array(GRID_COLUMNS * GRID_ROWS), new Float64Array(GRID_COLUMNS * GRID_ROWS)];
  const [boxWidth, boxHeight] = [box.right - box.left, box.bottom - box.top];
  for (let y = box.top; y < box.bottom; y++) {
    const row = Math.min(GRID_ROWS - 1, Math.floor(((y - box.top) * GRID_ROWS) / boxHeight));
    for (let x = box.left; x < box.right; x++) {
      const cell =
        row * GRID_COLUMNS + Math.min(GRID_COLUMNS - 1, Math.floor(((x - box.left) * GRID_COLUMNS) / boxWidth));
      sums[cell]! += ink[y * width + x]!;
      counts[cell]!++;
    }
  }
  return sums.map((sum, cell) => (counts[cell] ? sum / counts[cell]! : 0));
}
