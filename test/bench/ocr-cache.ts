import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OcrPage, ReadOptions, TextReader } from '../../shared/receipts/ocr/ocr-page.js';
import { ROOT } from '../support/root.js';

export interface TimedRead {
  page: OcrPage;
  readMs: number;
}

export type ReadImage = (image: Buffer, options?: ReadOptions) => Promise<TimedRead>;

/** One read by the engine, timed. */
export const timedRead =
  (reader: TextReader): ReadImage =>
  async (image, options) => {
    const started = performance.now();
    const page = await reader.readText(image, options);
    return { page, readMs: performance.now() - started };
  };

const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'tally-ocr');

/**
 * Reads kept on disk by the image's SHA-256, the engine's name and the look taken, so parser work can be scored
 * again in seconds. A cached read keeps the time of the read that filled it: the figures then say
 * nothing new about the engine, which is why a benchmark never reads from here.
 */
export function cachedRead(engine: string, read: ReadImage): ReadImage {
  mkdirSync(CACHE_DIR, { recursive: true });
  return async (image, options = {}) => {
    const look = options.closer ? '-closer' : '';
    const file = join(CACHE_DIR, `${engine}${look}-${createHash('sha256').update(image).digest('hex')}.json`);
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as TimedRead;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const fresh = await read(image, options);
    writeFileSync(file, JSON.stringify(fresh));
    return fresh;
  };
}

/**
 * A reader for readReceipt over `read` (cached or not): it adds up what the reads report
 * (`readMs`, a cached read's being the time that filled it) and how long they were waited for.
 */
export function readerOver(read: ReadImage, looksCloser: boolean) {
  const reader = {
    looksCloser,
    readMs: 0,
    waitedMs: 0,
    readText: async (image: Buffer, options?: ReadOptions) => {
      const started = performance.now();
      const timed = await read(image, options);
      reader.readMs += timed.readMs;
      reader.waitedMs += performance.now() - started;
      return timed.page;
    },
  };
  return reader;
}
