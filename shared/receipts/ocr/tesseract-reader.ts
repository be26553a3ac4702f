import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { createWorker, type Bbox, type Worker } from 'tesseract.js';
import type { OcrBox, OcrPage, TextReader } from './ocr-page.js';
import { perceptualHash } from './perceptual-hash.js';
import { prepareImage, type ImagePreparation } from './prepare-image.js';

/**
 * English language data installed with the package from the npm registry (docs/receipts.md#ocr):
 * nothing is downloaded at run time, and nothing is cached into the working directory (docs/dependencies.md).
 */
function languageDataPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

export async function startTesseract(): Promise<Worker> {
  const worker = await createWorker('eng', 1, { langPath: languageDataPath(), gzip: true, cacheMethod: 'none' });
  // Tesseract's own notes ("Estimating resolution as …") would go to the process's output, outside the JSON logs.
  await worker.setParameters({ debug_file: '/dev/null' });
  return worker;
}

const boxOf = ({ x0, y0, x1, y1 }: Bbox): OcrBox => ({ x0, y0, x1, y1 });

/**
 * Measured on the generated set's tuning split (docs/performance.md#ocr): enlarging images under
 * 1000 px raised the key tokens found from 86.9% to 87.8%; contrast stretching changed nothing, a
 * median filter lost 9 points.
 */
export const TESSERACT_PREPARATION: ImagePreparation = {
  maxSide: 2000,
  minSide: 1000,
  normalise: false,
  median: 0,
  cropToContent: false,
};

/**
 * tesseract.js, one recognizer per reader, started on first use and reused: starting one costs
 * about 0.3 s, a read of a receipt about as much again. Reads are queued by tesseract.js itself.
 */
export class TesseractReader implements TextReader {
  readonly looksCloser = false;
  private worker: Promise<Worker> | undefined;

  /** `start`: how a recognizer is started; a test makes a first start fail. */
  constructor(
    private readonly preparation: ImagePreparation = TESSERACT_PREPARATION,
    private readonly start: () => Promise<Worker> = startTesseract,
  ) {}

  async readText(image: Buffer): Promise<OcrPage> {
    // A start that failed is tried again by the next read.
    this.worker ??= this.start().catch((error: unknown) => {
      this.worker = undefined;
      throw error;
    });
    const worker = await this.worker;
    const prepared = await prepareImage(image, this.preparation);
    const { width, height } = prepared;
    const png = await sharp(prepared.pixels, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    // A photographed receipt is rarely straight: let tesseract find and undo the skew first.
    const { data } = await worker.recognize(png, { rotateAuto: true }, { blocks: true, text: false });
    const lines = (data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) =>
        paragraph.lines.map((line) => {
          const words = line.words
            .map((word) => ({ text: word.text.trim(), box: boxOf(word.bbox), confidence: word.confidence / 100 }))
            .filter((word) => word.text.length > 0);
          return {
            text: words.map((word) => word.text).join(' '),
            box: boxOf(line.bbox),
            confidence: line.confidence / 100,
            words,
          };
        }),
      ),
    );
    return {
      width,
      height,
      lines: lines.filter((line) => line.text.length > 0),
      confidence: data.confidence / 100,
      engine: 'tesseract.js',
      perceptualHash: await perceptualHash(prepared),
    };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }
}
