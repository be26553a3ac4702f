import type { OcrBox, OcrPage, OcrWord } from '../ocr-page.js';

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

/** Two boxes on one printed row share most of the smaller one's height. */
const SAME_ROW_OVERLAP = 0.5;

/**
 * Groups the page's words into printed rows by vertical overlap. An engine may split one printed
 * row into several lines (PaddleOCR reads a price far to the right as a line of its own at the
 * same height) or, on a tilted photo, give a row's two ends slightly different heights; a word
 * joins the row whose vertical band it overlaps most, measured against the row's nearest word, so
 * a slow slope along the row is followed rather than cut.
 */
export function printedRows(page: OcrPage): Row[] {
  const words = page.lines
    .flatMap((line) => line.words)
    .filter((word) => word.text.trim().length > 0)
    .sort((a, b) => centreY(a.box) - centreY(b.box) || a.box.x0 - b.box.x0);
  const groups: OcrWord[][] = [];
  for (const word of words) {
    let best: { group: OcrWord[]; overlap: number } | undefined;
    // Only the last few rows can hold a word this low: rows are built top to bottom.
    for (const group of groups.slice(-4)) {
      const nearest = nearestByX(group, word);
      const overlap = verticalOverlap(nearest.box, word.box);
      if (overlap >= SAME_ROW_OVERLAP && !crossesWord(group, word) && (!best || overlap > best.overlap))
        best = { group, overlap };
    }
    if (best) best.group.push(word);
    else groups.push([word]);
  }
  return groups
    .map((group) => group.sort((a, b) => a.box.x0 - b.box.x0))
    .sort((a, b) => centreY(boxAround(a)) - centreY(boxAround(b)))
    .map((group, index) => ({
      index,
      words: group,
      text: group.map((word) => word.text).join(' '),
      box: boxAround(group),
      confidence: Math.min(...group.map((word) => word.confidence)),
    }));
}

/** A row's words split where the gap between two is wider than a few characters: its columns. */
export function rowSegments(row: Row): OcrWord[][] {
  const segments: OcrWord[][] = [];
  let previous: OcrWord | undefined;
  for (const word of row.words) {
    const gap = previous ? word.box.x0 - previous.box.x1 : 0;
    if (!previous || gap > 2 * characterWidth(previous)) segments.push([word]);
    else segments.at(-1)!.push(word);
    previous = word;
  }
  return segments;
}

export function characterWidth(word: OcrWord): number {
  return (word.box.x1 - word.box.x0) / Math.max(1, word.text.length);
}

export function boxAround(words: { box: OcrBox }[]): OcrBox {
  return {
    x0: Math.min(...words.map((word) => word.box.x0)),
    y0: Math.min(...words.map((word) => word.box.y0)),
    x1: Math.max(...words.map((word) => word.box.x1)),
    y1: Math.max(...words.map((word) => word.box.y1)),
  };
}

function centreY(box: OcrBox): number {
  return (box.y0 + box.y1) / 2;
}

function verticalOverlap(a: OcrBox, b: OcrBox): number {
  const shared = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return shared / Math.max(1, Math.min(a.y1 - a.y0, b.y1 - b.y0));
}

function nearestByX(group: OcrWord[], word: OcrWord): OcrWord {
  const distance = (other: OcrWord) => Math.max(0, other.box.x0 - word.box.x1, word.box.x0 - other.box.x1);
  return group.reduce((nearest, other) => (distance(other) < distance(nearest) ? other : nearest));
}

/** Two words of one row never sit on top of each other: such a word belongs to the next row. */
function crossesWord(group: OcrWord[], word: OcrWord): boolean {
  return group.some((other) => {
    const shared = Math.min(other.box.x1, word.box.x1) - Math.max(other.box.x0, word.box.x0);
    return shared > 0.5 * Math.min(other.box.x1 - other.box.x0, word.box.x1 - word.box.x0);
  });
}
