import { Tensor, type InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import type { DetectedLine } from './detect-lines.js';

/** The recogniser's input height: PP-OCRv4's models were trained on lines 48 pixels high. */
const LINE_HEIGHT = 48;

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
  const width = Math.max(LINE_HEIGHT / 4, Math.round((crop.width * LINE_HEIGHT) / crop.height));
  const resized = await sharp(Buffer.from(crop.data.buffer, crop.data.byteOffset, crop.data.byteLength), {
    raw: { width: crop.width, height: crop.height, channels: 4 },
  })
    .removeAlpha()
    .resize({ width, height: LINE_HEIGHT, fit: 'fill' })
    .raw()
    .toBuffer();
  const plane = width * LINE_HEIGHT;
  const input = new Float32Array(3 * plane);
  for (let pixel = 0; pixel < plane; pixel += 1) {
    for (let channel = 0; channel < 3; channel += 1) {
      const value = resized[pixel * 3 + 2 - channel]! / 255;
      // PaddleOCR's own scaling to -1..1, or plain 0..1 as @gutenye/ocr-node feeds it.
      input[channel * plane + pixel] = normalise ? (value - 0.5) / 0.5 : value;
    }
  }
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
