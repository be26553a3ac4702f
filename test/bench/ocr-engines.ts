import { createHash } from 'node:crypto';
import { PADDLE_DEFAULTS, PaddleReader, type PaddleSettings } from '../../shared/receipts/ocr/paddle-reader.js';
import { TESSERACT_PREPARATION, TesseractReader } from '../../shared/receipts/ocr/tesseract-reader.js';
import type { TextReader } from '../../shared/receipts/ocr/ocr-page.js';
import type { ReadImage } from './ocr-cache.js';

export type OcrEngineName = 'paddle' | 'tesseract';

/** An engine with its settings: what a read depends on, so what keys the reads cached. */
export interface OcrVariant {
  engine: OcrEngineName;
  settings: PaddleSettings | typeof TESSERACT_PREPARATION;
  create: () => TextReader;
}

const paddle = (change: (settings: PaddleSettings) => void): OcrVariant => {
  const settings = structuredClone(PADDLE_DEFAULTS);
  change(settings);
  return { engine: 'paddle', settings, create: () => new PaddleReader(settings) };
};
const tesseract = (change: (settings: typeof TESSERACT_PREPARATION) => void): OcrVariant => {
  const settings = structuredClone(TESSERACT_PREPARATION);
  change(settings);
  return { engine: 'tesseract', settings, create: () => new TesseractReader(settings) };
};

const DEFAULTS: Record<OcrEngineName, OcrVariant> = { paddle: paddle(() => {}), tesseract: tesseract(() => {}) };

/** The OCR engines with their defaults, as the bench reads its sets with each. */
export const OCR_ENGINES: Record<OcrEngineName, () => TextReader> = {
  paddle: DEFAULTS.paddle.create,
  tesseract: DEFAULTS.tesseract.create,
};

/**
 * Each engine with its defaults, then each default changed one at a time: what
 * ocr-engine-comparison.ts times and `npm run ocr:score -- --engine "<variant>"` scores.
 */
export const OCR_VARIANTS: Record<string, OcrVariant> = {
  ...DEFAULTS,
  'paddle as @gutenye/ocr-node reads': paddle((settings) => {
    settings.preparation = {
      maxSide: Infinity,
      minSide: 0,
      normalise: false,
      median: 0,
      cropToContent: false,
    };
    settings.level = false;
    settings.detection = { maxSide: Infinity, minShortSide: 0, threshold: 0.03, normalise: false };
    settings.closerDetection = settings.detection;
  }),
  'paddle 1 thread': paddle((settings) => void (settings.threads = 1)),
  'paddle spinning threads': paddle((settings) => void (settings.spinning = true)),
  'paddle det 960': paddle((settings) => void (settings.detection.maxSide = 960)),
  'paddle det short side 640': paddle((settings) => void (settings.detection.minShortSide = 640)),
  'paddle no closer look': paddle((settings) => void (settings.closerDetection = settings.detection)),
  'paddle closer look at short side 480': paddle((settings) => void (settings.closerDetection.minShortSide = 480)),
  'paddle closer look at short side 800': paddle((settings) => void (settings.closerDetection.minShortSide = 800)),
  'paddle whole page': paddle((settings) => void (settings.preparation.cropToContent = false)),
  'paddle not levelled': paddle((settings) => void (settings.level = false)),
  'paddle det threshold 0.1': paddle((settings) => void (settings.detection.threshold = 0.1)),
  'paddle det ImageNet input': paddle((settings) => void (settings.detection.normalise = true)),
  'paddle rec -1..1 input': paddle((settings) => void (settings.normaliseRecognition = true)),
  'paddle no contrast stretch': paddle((settings) => void (settings.preparation.normalise = false)),
  'paddle median 3': paddle((settings) => void (settings.preparation.median = 3)),
  'paddle upscale <1000': paddle((settings) => void (settings.preparation.minSide = 1000)),
  'paddle no cap': paddle((settings) => void (settings.preparation.maxSide = Infinity)),
  'tesseract no upscale': tesseract((preparation) => void (preparation.minSide = 0)),
  'tesseract normalise': tesseract((preparation) => void (preparation.normalise = true)),
  'tesseract median 3': tesseract((preparation) => void (preparation.median = 3)),
};

export const isOcrVariant = (name: string): boolean => Object.hasOwn(OCR_VARIANTS, name);

/**
 * The key a variant's reads are cached under: its engine and a digest of its settings, so a
 * changed default reads again instead of scoring the old settings' reads. Threads change no read.
 */
export function variantCacheKey({ engine, settings }: OcrVariant): string {
  const { threads: _threads, spinning: _spinning, ...reading } = settings as Partial<PaddleSettings>;
  return `${engine}-${createHash('sha256').update(JSON.stringify(reading)).digest('hex').slice(0, 12)}`;
}

/**
 * `read`, after one untimed read of the first image it is given: an engine loads its models on its
 * first read, which a running worker paid long before, so the figures per receipt are a warm
 * reader's; `started` is told what the first read cost. A run whose reads all come from the cache
 * never starts the engine.
 */
export function afterWarmUp(reader: TextReader, read: ReadImage, started: (ms: number) => void): ReadImage {
  let warm: Promise<void> | undefined;
  return async (image, options) => {
    warm ??= (async () => {
      const begun = performance.now();
      await reader.readText(image);
      started(performance.now() - begun);
    })();
    await warm;
    return read(image, options);
  };
}
