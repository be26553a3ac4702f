import { PaddleReader } from '../../shared/receipts/ocr/paddle-reader.js';
import { TesseractReader } from '../../shared/receipts/ocr/tesseract-reader.js';
import type { TextReader } from '../../shared/receipts/ocr/ocr-page.js';
import type { ReadImage } from './ocr-cache.js';

/** The OCR engines the scorer can measure, by the name `npm run ocr:score --engine` takes. */
export const OCR_ENGINES = {
  paddle: () => new PaddleReader(),
  tesseract: () => new TesseractReader(),
} satisfies Record<string, () => TextReader>;
export type OcrEngineName = keyof typeof OCR_ENGINES;

export const isOcrEngineName = (name: string): name is OcrEngineName => Object.hasOwn(OCR_ENGINES, name);

/**
 * `read`, after one untimed read of the first image it is given: an engine loads its models on its
 * first read, which a running worker paid long before, so the figures per receipt are a warm
 * reader's; `started` is told what the first read cost. A run whose reads all come from the cache
 * never starts the engine.
 */
export function afterWarmUp(reader: TextReader, read: ReadImage, started: (ms: number) => void): ReadImage {
  let warm: Promise<void> | undefined;
  return async (image) => {
    warm ??= (async () => {
      const begun = performance.now();
      await reader.readText(image);
      started(performance.now() - begun);
    })();
    await warm;
    return read(image);
  };
}
