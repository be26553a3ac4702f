import '@gutenye/ocr-node'; // registers the Node image backend that splitIntoLineImages crops with
import { createRequire } from 'node:module';
import { splitIntoLineImages } from '@gutenye/ocr-common/splitIntoLineImages';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import type { PreparedImage } from '../prepare-image.js';

/** A text line found by the detector: its four corners in the prepared image, clockwise from top left, and its pixels straightened. */
export interface DetectedLine {
  corners: [number, number][];
  crop: { data: Uint8Array | Uint8ClampedArray; width: number; height: number };
}

export interface DetectionSettings {
  /** The detector's input, longest side in pixels (a multiple of 32); the image is shrunk to it, never enlarged. */
  maxSide: number;
  /** Probability above which a pixel of the detector's map is text. */
  threshold: number;
  /** PaddleOCR's own normalisation (ImageNet mean and deviation) instead of plain 0..1. */
  normalise: boolean;
}

/**
 * splitIntoLineImages uses OpenCV's WebAssembly build, which compiles in the background after it is
 * imported; a detection that finishes first would find no OpenCV (seen on a busy machine). It is
 * required, not imported: the module is a thenable until it is ready, and an `import` that a test
 * runner awaits would chase its `then` for ever.
 */
export function openCvReady(): Promise<void> {
  const module = createRequire(import.meta.url)('@techstark/opencv-js') as {
    Mat?: unknown;
    onRuntimeInitialized?: () => void;
  };
  if (typeof module.Mat === 'function') return Promise.resolve();
  return new Promise((resolve) => {
    module.onRuntimeInitialized = resolve;
  });
}

const MEAN = [0.485, 0.456, 0.406];
const DEVIATION = [0.229, 0.224, 0.225];

const multipleOf32 = (value: number) => Math.max(32, Math.round(value / 32) * 32);

/**
 * PP-OCRv4 detection: the image shrunk to the detector's size, a map of where text is, and each
 * line's region cut out of the full-size prepared image (splitIntoLineImages scales the boxes
 * back), so a large photo is searched cheaply and still read at its full resolution.
 */
export async function detectLines(
  session: InferenceSession,
  image: PreparedImage,
  settings: DetectionSettings,
): Promise<DetectedLine[]> {
  const scale = Math.min(1, settings.maxSide / Math.max(image.width, image.height));
  const width = multipleOf32(image.width * scale);
  const height = multipleOf32(image.height * scale);
  const resized = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize({ width, height, fit: 'fill' })
    .raw()
    .toBuffer();
  const input = new Float32Array(3 * width * height);
  const plane = width * height;
  for (let pixel = 0; pixel < plane; pixel += 1) {
    // Channels in the order PaddleOCR's models were trained on: blue, green, red.
    for (let channel = 0; channel < 3; channel += 1) {
      const value = resized[pixel * 3 + 2 - channel]! / 255;
      input[channel * plane + pixel] = settings.normalise ? (value - MEAN[channel]!) / DEVIATION[channel]! : value;
    }
  }
  const outputs = await session.run({ [session.inputNames[0]!]: new Tensor('float32', input, [1, 3, height, width]) });
  const probabilities = outputs[session.outputNames[0]!]!.data as Float32Array;
  const map = new Uint8ClampedArray(plane * 4);
  for (let pixel = 0; pixel < plane; pixel += 1) {
    const value = probabilities[pixel]! > settings.threshold ? 255 : 0;
    map[pixel * 4] = value;
    map[pixel * 4 + 1] = value;
    map[pixel * 4 + 2] = value;
    map[pixel * 4 + 3] = 255;
  }
  const found = await splitIntoLineImages(
    { data: map, width, height } as never,
    { data: withAlpha(image.pixels), width: image.width, height: image.height } as never,
  );
  return found.map((line) => ({
    corners: (line.box as [number, number][]).map(([x, y]) => [x, y] as [number, number]),
    crop: line.image as DetectedLine['crop'],
  }));
}

/** RGBA from RGB: the cropping works on canvas-style image data. */
function withAlpha(rgb: Buffer): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray((rgb.length / 3) * 4);
  for (let pixel = 0, at = 0; at < rgb.length; pixel += 4, at += 3) {
    rgba[pixel] = rgb[at]!;
    rgba[pixel + 1] = rgb[at + 1]!;
    rgba[pixel + 2] = rgb[at + 2]!;
    rgba[pixel + 3] = 255;
  }
  return rgba;
}
