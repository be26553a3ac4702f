/**
 * What an OCR engine reads off a receipt image, whatever the engine: lines of words, each with the
 * box it was found in (pixels of the image as the engine prepared it, origin top left) and a
 * confidence from 0 to 1.
 * The parser works from these boxes, not only from the text, so rows, columns and the price column
 * can be found by position.
 */
export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  box: OcrBox;
  /** 0 to 1. */
  confidence: number;
}

export interface OcrLine {
  text: string;
  box: OcrBox;
  /** 0 to 1. */
  confidence: number;
  /** In reading order; their texts joined by single spaces make the line's text. */
  words: OcrWord[];
}

export interface OcrPage {
  /** The image's size, after any preparation the engine did; boxes are in these pixels. */
  width: number;
  height: number;
  /** Top to bottom. */
  lines: OcrLine[];
  /** The page's, 0 to 1. */
  confidence: number;
  /** Which engine read it, for the record kept on the receipt. */
  engine: string;
  /**
   * The perceptual hash of the image as the engine prepared it (perceptual-hash.ts), taken where
   * the image is decoded already; absent from a page that was not read off an image (a parser's test).
   */
  perceptualHash?: string;
}

export interface ReadOptions {
  /** Look more closely, at more cost: asked when a first read did not add up (readReceipt). */
  closer?: boolean;
}

/** An OCR engine: reads one image at a time (callers may queue several), and is closed once. */
export interface TextReader {
  readText(image: Buffer, options?: ReadOptions): Promise<OcrPage>;
  /** Whether a closer look reads differently at all: an engine without one is not asked twice. */
  readonly looksCloser: boolean;
  close(): Promise<void>;
}
