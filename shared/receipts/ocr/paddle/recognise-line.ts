import { Tensor, type InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import { planarBgr } from './planar-bgr.js';
import type { DetectedLine } from './split-lines.js';

/** The recogniser's input height: PP-OCRv4's models were trained on lines 48 pixels high. */
const LINE_HEIGHT = 48;

/**
 * The widest input the recogniser is given once the line is scaled to its height; a wider line is
 * squeezed to it. A sliver the detector took for a line grows absurdly wide at that height, and
 * the recogniser's time and memory grow with the width: 2000×4 pixels (24,000 wide) took 2.5 s
 * and 1.1 GB, 8000×4 took 37 s and 10 GB.
 */
export const MAX_LINE_WIDTH = 3200;

/** One character the recogniser read, where it sits along the line (0 at the left end, 1 at the right). */
export interface ReadCharacter {
  text: string;
  /** The share of the line's length where the character's timestep falls. */
  at: number;
  confidence: number;
}

/**
 * PP-OCRv4 recognition of one straightened line: the model scores every character of its
 * dictionary at each of a row of timesteps across the line (CTC); the best at each timestep,
 * repeats merged and blanks dropped, is the text. Unlike @gutenye/ocr-node's own decoding this
 * keeps where each character was read, from which the reader draws word boxes.
 */
export async function recogniseLine(
  session: InferenceSession,
  dictionary: string[],
  crop: DetectedLine['crop'],
  normalise: boolean,
): Promise<ReadCharacter[]> {
  const width = Math.min(
    MAX_LINE_WIDTH,
    Math.max(LINE_HEIGHT / 4, Math.round((crop.width * LINE_HEIGHT) / crop.height)),
  );
  const resized = await sharp(crop.data, { raw: { width: crop.width, height: crop.height, channels: 3 } })
    .resize({ width, height: LINE_HEIGHT, fit: 'fill' })
    .raw()
    .toBuffer();
  // PaddleOCR's own scaling to -1..1, or plain 0..1 as @gutenye/ocr-node feeds it.
  const input = planarBgr(resized, (value) => (normalise ? (value - 0.5) / 0.5 : value));
  const outputs = await session.run({
    [session.inputNames[0]!]: new Tensor('float32', input, [1, 3, LINE_HEIGHT, width]),
  });
  const output = outputs[session.outputNames[0]!]!;
  const [, steps, classes] = output.dims as [number, number, number];
  const scores = output.data as Float32Array;
  const characters: ReadCharacter[] = [];
  let previous = 0;
  for (let step = 0; step < steps; step += 1) {
    let best = 0;
    for (let index = 1; index < classes; index += 1) {
      if (scores[step * classes + index]! > scores[step * classes + best]!) best = index;
    }
    // Index 0 is CTC's blank; a class repeated over neighbouring timesteps is one character.
    if (best !== 0 && best !== previous) {
      characters.push({
        text: dictionary[best - 1]!,
        at: (step + 0.5) / steps,
        confidence: scores[step * classes + best]!,
      });
    }
    previous = best;
  }
  return characters;
}
