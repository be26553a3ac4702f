import type { Config } from '../../platform/config/config.js';
import type { TextReader } from './ocr-page.js';
import { PaddleReader } from './paddle-reader.js';
import { TesseractReader } from './tesseract-reader.js';

/** The reader of the engine `OCR_ENGINE` names (docs/receipts.md#the-engine). */
export function createTextReader(engine: Config['ocrEngine']): TextReader {
  return engine === 'paddle' ? new PaddleReader() : new TesseractReader();
}
