/** A region of an image, in its pixels. */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A grey image, one byte a pixel (0 black), rows top to bottom. */
export interface GreyImage {
  pixels: Uint8Array;
  width: number;
  height: number;
}

/** A pixel this dark, on an image whose grey levels were stretched, is ink. */
const INK = 128;
/** The page is looked at in square cells this share of its longer side. */
const CELL = 1 / 50;
/**
 * A cell with at least this share of ink holds print: a line of text darkens a fifth of a cell or
 * more, a scanner's speck or the dust on a flatbed a few pixels.
 */
const PRINTED_CELL = 0.04;
/** Room kept around the print, as a share of the image's side: a faint first or last letter. */
const MARGIN = 0.03;
/** A box covering more than this share of the image is the image: cropping gains nothing. */
const WORTH_CROPPING = 0.7;

/**
 * Where the print is on a scanned page or a photo: the box around the cells that hold print and
 * touch another such cell (a lone mark is a speck or a stain, not a receipt), with a margin. A till
 * receipt scanned on an A4 flatbed fills a third of the page, and shrinking the whole page to the
 * detector's size leaves its letters a few pixels high. None when the print fills most of the
 * image already, or there is none.
 */
export function contentBox(image: GreyImage): Region | undefined {
  const side = Math.max(1, Math.round(CELL * Math.max(image.width, image.height)));
  const across = Math.ceil(image.width / side);
  const down = Math.ceil(image.height / side);
  const ink = new Uint32Array(across * down);
  for (let y = 0; y < image.height; y += 1) {
    const row = Math.floor(y / side) * across;
    for (let x = 0; x < image.width; x += 1)
      if (image.pixels[y * image.width + x]! < INK) ink[row + Math.floor(x / side)]! += 1;
  }
  const printed = (column: number, row: number) =>
    column >= 0 &&
    row >= 0 &&
    column < across &&
    row < down &&
    ink[row * across + column]! >= PRINTED_CELL * side * side;
  let [left, top, right, bottom] = [across, down, -1, -1];
  for (let row = 0; row < down; row += 1) {
    for (let column = 0; column < across; column += 1) {
      if (!printed(column, row) || !hasPrintedNeighbour(printed, column, row)) continue;
      [left, top] = [Math.min(left, column), Math.min(top, row)];
      [right, bottom] = [Math.max(right, column), Math.max(bottom, row)];
    }
  }
  if (right < 0) return undefined;
  const [x0, x1] = widened(left * side, (right + 1) * side, image.width);
  const [y0, y1] = widened(top * side, (bottom + 1) * side, image.height);
  const region = { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
  return region.width * region.height > WORTH_CROPPING * image.width * image.height ? undefined : region;
}

function hasPrintedNeighbour(printed: (column: number, row: number) => boolean, column: number, row: number): boolean {
  for (let dy = -1; dy <= 1; dy += 1)
    for (let dx = -1; dx <= 1; dx += 1) if ((dx || dy) && printed(column + dx, row + dy)) return true;
  return false;
}

/** A span widened by the margin, within the image. */
function widened(start: number, end: number, length: number): [number, number] {
  const margin = Math.ceil(MARGIN * length);
  return [Math.max(0, start - margin), Math.min(length, end + margin)];
}
