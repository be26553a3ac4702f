import type { OcrBox, OcrLine, OcrPage, OcrWord } from '../ocr-page.js';

/** One printed row of the receipt: its words left to right, whichever OCR lines they came from. */
export interface Row {
  /** Top to bottom, from 0. */
  index: number;
  words: OcrWord[];
  /** The words joined by single spaces. */
  text: string;
  box: OcrBox;
  /** The lowest of its words': a row is as sure as its worst-read word. */
  confidence: number;
}

/** The steepest tilt looked for, in pixels down per pixel across (about 8 degrees). */
const MAX_SKEW = 0.14;
/** Below this (under a degree) a row's ends differ by less than half a row: no correction needed. */
const MIN_SKEW = 0.012;
const SKEW_STEP = 0.004;

/** An OCR line with its words' boxes turned level by the page's skew. */
interface LevelLine {
  centre: number;
  height: number;
  words: OcrWord[];
}

/**
 * Groups the page's lines into printed rows. An engine's line never spans two printed rows, but a
 * printed row may come as several lines: PaddleOCR reads a price far to the right as a line of its
 * own. On a photo taken askew such a price sits lower or higher than its description, by the
 * tilt times the distance between them, often more than a row's height; so the page's skew is
 * measured first (the tilt that lines up the most lines standing side by side), every box is
 * turned level by it, and lines whose levelled centres lie within half a row of each other make
 * one row. Rows keep the levelled boxes, so columns line up down the page too.
 */
export function printedRows(page: OcrPage, skew = pageSkew(page.lines)): Row[] {
  const lines = page.lines.filter((line) => line.words.some((word) => word.text.trim()));
  const level = lines.map((line) => levelled(line, skew)).sort((a, b) => a.centre - b.centre);
  const groups: LevelLine[][] = [];
  for (const line of level) {
    const fits = groups.slice(-4).filter((group) => {
      const near = group.every(
        (other) => Math.abs(other.centre - line.centre) < 0.5 * Math.min(other.height, line.height),
      );
      return near && !group.some((other) => overlapsAcross(other, line));
    });
    const best = fits.sort((a, b) => distance(a, line) - distance(b, line))[0];
    if (best) best.push(line);
    else groups.push([line]);
  }
  return groups.map((group, index) => {
    const words = group.flatMap((line) => line.words).sort((a, b) => a.box.x0 - b.box.x0);
    return {
      index,
      words,
      text: words.map((word) => word.text).join(' '),
      box: boxAround(words),
      confidence: words.reduce((least, word) => Math.min(least, word.confidence), 1),
    };
  });
}

/**
 * The page's tilt. Its size comes from the line boxes: an upright box around a tilted line is
 * taller than the text by the tilt times the line's width, so across lines the box height grows
 * with the width at the rate of the tilt. Its direction is the one that lines up more lines
 * standing side by side (a description and its price); measuring by such pairs alone would not
 * do, as a tilt of one row's pitch lines up each price with the next row's description.
 */
function pageSkew(lines: OcrLine[]): number {
  const size = Math.min(MAX_SKEW, heightGrowth(lines));
  if (size < MIN_SKEW) return 0;
  return sideBySidePairs(lines, -size) > sideBySidePairs(lines, size) ? -size : size;
}

/**
 * The tilts worth reading the page at: level, the measured one, and the two most lines standing
 * side by side imply. A line and one to its right within a row or so imply the tilt that would
 * put them on one row; a description and its own price imply the page's tilt, all alike, while a
 * description and the next row's price imply tilts that vary with their distance apart. Which
 * reading is right is for the caller to decide by the receipt's arithmetic.
 */
export function skewCandidates(page: OcrPage): number[] {
  const votes = new Map<number, number>();
  const lines = page.lines.filter((line) => line.words.length);
  for (const left of lines)
    for (const right of lines) {
      const across = centre(right.box).x - centre(left.box).x;
      const apart = right.box.x0 - left.box.x1;
      const down = centre(right.box).y - centre(left.box).y;
      const height = Math.min(left.box.y1 - left.box.y0, right.box.y1 - right.box.y0);
      if (apart <= 0 || Math.abs(down) > 1.6 * height) continue;
      const bin = Math.round(down / across / SKEW_STEP);
      if (Math.abs(bin * SKEW_STEP) <= MAX_SKEW) votes.set(bin, (votes.get(bin) ?? 0) + 1);
    }
  const implied = [...votes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([bin]) => bin * SKEW_STEP);
  return [...new Set([0, pageSkew(page.lines), ...implied])];
}

function centre(box: OcrBox): { x: number; y: number } {
  return { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 };
}

/** The least-squares slope of box height over box width. */
function heightGrowth(lines: OcrLine[]): number {
  const points = lines.map(({ box }) => ({ width: box.x1 - box.x0, height: box.y1 - box.y0 }));
  if (points.length < 3) return 0;
  const meanWidth = points.reduce((sum, point) => sum + point.width, 0) / points.length;
  const meanHeight = points.reduce((sum, point) => sum + point.height, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.width - meanWidth) * (point.height - meanHeight);
    variance += (point.width - meanWidth) ** 2;
  }
  return variance > 0 ? covariance / variance : 0;
}

function sideBySidePairs(lines: OcrLine[], skew: number): number {
  const level = lines.map((line) => levelled(line, skew));
  let pairs = 0;
  for (let i = 0; i < level.length; i++)
    for (let j = i + 1; j < level.length; j++) {
      const [a, b] = [level[i]!, level[j]!];
      if (!overlapsAcross(a, b) && Math.abs(a.centre - b.centre) < 0.3 * Math.min(a.height, b.height)) pairs++;
    }
  return pairs;
}

/**
 * A line turned level: its centre moved by the tilt, its height what the text's own height must
 * be (an upright box around a tilted line is taller by the tilt times its width), and its words'
 * boxes moved with it.
 */
function levelled(line: OcrLine, skew: number): LevelLine {
  const { x0, y0, x1, y1 } = line.box;
  const centreX = (x0 + x1) / 2;
  const centreY = (y0 + y1) / 2;
  const height = Math.max(y1 - y0 - Math.abs(skew) * (x1 - x0), 0.35 * (y1 - y0), 1);
  const centre = centreY - skew * centreX;
  const words = line.words
    .filter((word) => word.text.trim())
    .map((word) => ({
      ...word,
      box: {
        x0: word.box.x0 + skew * centreY,
        x1: word.box.x1 + skew * centreY,
        y0: centre - height / 2,
        y1: centre + height / 2,
      },
    }));
  return { centre, height, words };
}

function overlapsAcross(a: LevelLine, b: LevelLine): boolean {
  return a.words.some((one) =>
    b.words.some((other) => Math.min(one.box.x1, other.box.x1) - Math.max(one.box.x0, other.box.x0) > 0),
  );
}

function distance(group: LevelLine[], line: LevelLine): number {
  return group.reduce((nearest, other) => Math.min(nearest, Math.abs(other.centre - line.centre)), Infinity);
}

export function characterWidth(word: OcrWord): number {
  return (word.box.x1 - word.box.x0) / Math.max(1, word.text.length);
}

/** By a loop, not Math.min(...words): spreading a line of a few hundred thousand words overflows the stack. */
function boxAround(words: { box: OcrBox }[]): OcrBox {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const { box: word } of words) {
    box.x0 = Math.min(box.x0, word.x0);
    box.y0 = Math.min(box.y0, word.y0);
    box.x1 = Math.max(box.x1, word.x1);
    box.y1 = Math.max(box.y1, word.y1);
  }
  return box;
}
