import Ocr from '@gutenye/ocr-node';
import { imageSize } from 'image-size';
import type { OcrBox, OcrLine, OcrPage, TextReader } from './ocr-page.js';

interface PaddleLine {
  text: string;
  mean: number;
  box?: number[][];
}

interface PaddleOcr {
  detect(image: Buffer | string): Promise<PaddleLine[]>;
}

/** The upright box around PaddleOCR's four corners (a tilted line's quadrilateral). */
function boxAround(corners: number[][]): OcrBox {
  const xs = corners.map(([x]) => x!);
  const ys = corners.map(([, y]) => y!);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/**
 * PaddleOCR recognises a line at a time and gives no word boxes: each word gets its share of the
 * line's width by its count of characters (spaces included), exact for a monospace receipt and
 * close for a proportional one, which is all the parser asks of word positions (columns, the
 * price at the right edge).
 */
function lineOf({ text, mean, box }: PaddleLine): OcrLine {
  const lineBox = boxAround(box ?? [[0, 0]]);
  const perCharacter = (lineBox.x1 - lineBox.x0) / Math.max(1, text.length);
  const words = [...text.matchAll(/\S+/g)].map((match) => ({
    text: match[0],
    box: {
      x0: lineBox.x0 + match.index * perCharacter,
      y0: lineBox.y0,
      x1: lineBox.x0 + (match.index + match[0].length) * perCharacter,
      y1: lineBox.y1,
    },
    confidence: mean,
  }));
  return { text: words.map((word) => word.text).join(' '), box: lineBox, confidence: mean, words };
}

/**
 * PaddleOCR's PP-OCRv4 detection and recognition models on onnxruntime's CPU runtime, through
 * @gutenye/ocr-node (models and runtime ship inside the npm packages: nothing is fetched at run
 * time). One model pair per reader, loaded on first use.
 */
export class PaddleReader implements TextReader {
  private ocr: Promise<PaddleOcr> | undefined;

  async readText(image: Buffer): Promise<OcrPage> {
    this.ocr ??= Ocr.create() as Promise<PaddleOcr>;
    const found = await (await this.ocr).detect(image);
    const lines = found
      .map(lineOf)
      .filter((line) => line.text.length > 0)
      .sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
    const confidence = lines.length ? lines.reduce((sum, line) => sum + line.confidence, 0) / lines.length : 0;
    const { width, height } = imageSize(image);
    return { width, height, lines, confidence, engine: 'paddleocr-ppocrv4' };
  }

  async close(): Promise<void> {
    // onnxruntime's sessions are released with the process; nothing holds a thread between reads.
    this.ocr = undefined;
  }
}
