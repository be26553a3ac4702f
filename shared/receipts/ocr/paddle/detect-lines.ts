import { Tensor, type InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import type { PreparedImage } from '../prepare-image.js';
import { planarBgr } from './planar-bgr.js';
import { splitLines, type DetectedLine } from './split-lines.js';

export type { DetectedLine } from './split-lines.js';

export interface DetectionSettings {
  /** The detector's input, longest side in pixels (a multiple of 32); the image is shrunk to it, never enlarged. */
  maxSide: number;
  /**
   * Unless its shorter side would then fall below this: a long, narrow till receipt shrunk by its
   * length alone leaves letters a few pixels high, which the detector merges or misses.
   */
  minShortSide: number;
  /** Probability above which a pixel of the detector's map is text. */
  threshold: number;
  /** PaddleOCR's own normalisation (ImageNet mean and deviation) instead of plain 0..1. */
  normalise: boolean;
}

/** ImageNet's mean and deviation, applied to the planes in PaddleOCR's order (its blue plane gets red's figures, as PaddleOCR does). */
const MEAN = [0.485, 0.456, 0.406];
const DEVIATION = [0.229, 0.224, 0.225];

const multipleOf32 = (value: number) => Math.max(32, Math.round(value / 32) * 32);

/**
 * PP-OCRv4 detection: the image shrunk to the detector's size, a map of where text is, and each
 * line's region cut out of the full-size prepared image (splitLines scales the boxes back), so a
 * large photo is searched cheaply and still read at its full resolution. OpenCV must be ready
 * (openCvReady).
 */
export async function detectLines(
  session: InferenceSession,
  image: PreparedImage,
  settings: DetectionSettings,
): Promise<DetectedLine[]> {
  const scale = Math.min(
    1,
    Math.max(
      settings.maxSide / Math.max(image.width, image.height),
      settings.minShortSide / Math.min(image.width, image.height),
    ),
  );
  const width = multipleOf32(image.width * scale);
  const height = multipleOf32(image.height * scale);
  const resized = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize({ width, height, fit: 'fill' })
    .raw()
    .toBuffer();
  const input = planarBgr(resized, (value, channel) =>
    settings.normalise ? (value - MEAN[channel]!) / DEVIATION[channel]! : value,
  );
  const outputs = await session.run({ [session.inputNames[0]!]: new Tensor('float32', input, [1, 3, height, width]) });
  const probabilities = outputs[session.outputNames[0]!]!.data as Float32Array;
  const map = new Uint8Array(width * height);
  for (let pixel = 0; pixel < map.length; pixel += 1) map[pixel] = probabilities[pixel]! > settings.threshold ? 255 : 0;
  return splitLines({ data: map, width, height }, image);
}
