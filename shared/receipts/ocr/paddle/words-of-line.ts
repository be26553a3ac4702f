import type { OcrBox, OcrLine, OcrWord } from '../ocr-page.js';
import type { ReadCharacter } from './recognise-line.js';

type Corners = [number, number][];

/**
 * A gap between two characters wider than this many character widths separates words even where
 * the recogniser read no space: a receipt's description and its price, far apart on one row.
 */
const WORD_GAP = 2.5;

const pointAlong = ([from, to]: [number, number][], share: number): [number, number] => [
  from![0] + (to![0] - from![0]) * share,
  from![1] + (to![1] - from![1]) * share,
];

function boxAround(points: [number, number][]): OcrBox {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

const boxAroundBoxes = (boxed: { box: OcrBox }[]): OcrBox =>
  boxAround(
    boxed.flatMap(({ box }): [number, number][] => [
      [box.x0, box.y0],
      [box.x1, box.y1],
    ]),
  );

/**
 * The distance between neighbouring characters, as a share of the line's length: the median, so
 * a wide gap inside the line (a description far from its price) does not swell it.
 */
function characterPitch(characters: ReadCharacter[]): number {
  const steps = characters.slice(1).map((character, index) => character.at - characters[index]!.at);
  if (steps.length === 0) return 1 / Math.max(1, characters.length);
  steps.sort((a, b) => a - b);
  return steps[Math.floor(steps.length / 2)]!;
}

/**
 * The words of one detected line, each boxed where its characters were read: the share of the
 * line's length at which the recogniser placed a character, taken along the line's top and bottom
 * edges (so a tilted line's words follow its tilt), widened by half a character at each end.
 */
export function wordsOfLine(corners: Corners, characters: ReadCharacter[]): OcrWord[] {
  const [topLeft, topRight, bottomRight, bottomLeft] = corners as [Corners[0], Corners[0], Corners[0], Corners[0]];
  const pitch = characterPitch(characters);
  const halfCharacter = pitch / 2;
  const groups: ReadCharacter[][] = [];
  let current: ReadCharacter[] = [];
  for (const character of characters) {
    const previous = current.at(-1);
    const farApart = previous !== undefined && character.at - previous.at > WORD_GAP * pitch;
    if (character.text.trim() === '' || farApart) {
      if (current.length) groups.push(current);
      current = [];
    }
    if (character.text.trim() !== '') current.push(character);
  }
  if (current.length) groups.push(current);
  return groups.map((group) => {
    const start = Math.max(0, group[0]!.at - halfCharacter);
    const end = Math.min(1, group.at(-1)!.at + halfCharacter);
    return {
      text: group.map((character) => character.text).join(''),
      box: boxAround([
        pointAlong([topLeft, topRight], start),
        pointAlong([topLeft, topRight], end),
        pointAlong([bottomLeft, bottomRight], start),
        pointAlong([bottomLeft, bottomRight], end),
      ]),
      confidence: group.reduce((sum, character) => sum + character.confidence, 0) / group.length,
    };
  });
}

/**
 * Detected lines that share a row (a description and its price are often found apart) become one
 * OCR line, words left to right: a line is a row of the receipt, as the parser expects.
 */
export function rowsOf(segments: OcrWord[][]): OcrLine[] {
  const placed = segments
    .filter((words) => words.length > 0)
    .map((words) => ({
      words,
      box: boxAroundBoxes(words),
    }))
    .sort((a, b) => a.box.y0 + a.box.y1 - (b.box.y0 + b.box.y1));
  const rows: (typeof placed)[] = [];
  for (const segment of placed) {
    const middle = (segment.box.y0 + segment.box.y1) / 2;
    const row = rows.find((candidate) => {
      const first = candidate[0]!.box;
      return Math.abs((first.y0 + first.y1) / 2 - middle) < (first.y1 - first.y0) / 2;
    });
    if (row) row.push(segment);
    else rows.push([segment]);
  }
  return rows.map((row) => {
    const words = row.sort((a, b) => a.box.x0 - b.box.x0).flatMap((segment) => segment.words);
    const characters = words.reduce((sum, word) => sum + word.text.length, 0);
    return {
      text: words.map((word) => word.text).join(' '),
      box: boxAroundBoxes(row),
      confidence: words.reduce((sum, word) => sum + word.confidence * word.text.length, 0) / characters,
      words,
    };
  });
}
