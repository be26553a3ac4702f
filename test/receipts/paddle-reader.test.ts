import type { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadPaddleModels,
  PADDLE_DEFAULTS,
  PaddleReader,
  ReaderClosedError,
  type PaddleModels,
} from '../../shared/receipts/ocr/paddle-reader.js';
import { fixtureImage } from '../fixtures/receipts/fixture-image.js';

const image = fixtureImage('corner-shop.png');

/** The real models, loaded once for the file, each session's runs noted in `runs` by model, the detector's input sizes in `detectorInputs`. */
const runs: string[] = [];
const detectorInputs: (readonly number[])[] = [];
const loaded = loadPaddleModels(PADDLE_DEFAULTS);
afterAll(async () => {
  const { detection, recognition } = await loaded;
  await Promise.all([detection.release(), recognition.release()]);
});

const watched = (name: string, session: InferenceSession) =>
  new Proxy(session, {
    get: (target, property) =>
      property === 'run'
        ? (...args: Parameters<InferenceSession['run']>) => {
            runs.push(name);
            if (name === 'detection') detectorInputs.push(Object.values(args[0])[0]!.dims);
            return target.run(...args);
          }
        : Reflect.get(target, property),
  });

/** A loader that hands out the file's models without releasing them on close, watched. */
const shared = async (): Promise<PaddleModels> => {
  const models = await loaded;
  const detection = watched('detection', models.detection);
  const recognition = watched('recognition', models.recognition);
  const kept = { release: () => Promise.resolve() };
  return {
    dictionary: models.dictionary,
    detection: Object.assign(Object.create(detection) as InferenceSession, kept),
    recognition: Object.assign(Object.create(recognition) as InferenceSession, kept),
  };
};

describe('PaddleReader', () => {
  // paddle-reader.ts: "they run one at a time, in the order asked".
  it('reads images asked for at once one after the other: each read ends before the next begins', async () => {
    const reader = new PaddleReader(PADDLE_DEFAULTS, shared);
    runs.length = 0;
    await Promise.all([reader.readText(image), reader.readText(image)]);
    await reader.close();
    // A read runs the detector once, then the recogniser on each line it found.
    expect(runs.join(' ')).toMatch(/^detection( recognition)+ detection( recognition)+$/);
    const second = runs.lastIndexOf('detection');
    expect(runs.length - second).toBe(second);
  });

  // Issue 32: "a second pass"; paddle-reader.ts: a closer look keeps the detector's shorter side at 640 px.
  it('gives the detector a larger image at a closer look', async () => {
    // A scan at three times the fixture's size: the first look shrinks it to 640 px long.
    const { width = 0 } = await sharp(image).metadata();
    const scan = await sharp(image)
      .resize({ width: width * 3 })
      .png()
      .toBuffer();
    const reader = new PaddleReader(PADDLE_DEFAULTS, shared);
    detectorInputs.length = 0;
    await reader.readText(scan);
    await reader.readText(scan, { closer: true });
    await reader.close();
    const [first, closer] = detectorInputs as [number[], number[]];
    expect(Math.max(first[2]!, first[3]!)).toBeLessThanOrEqual(640);
    expect(Math.min(closer[2]!, closer[3]!)).toBeGreaterThan(Math.min(first[2]!, first[3]!));
  });

  it('tries to load its models again on the read after a load that failed', async () => {
    let attempts = 0;
    const failingOnce = () => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('model file unreadable')) : shared();
    };
    const reader = new PaddleReader(PADDLE_DEFAULTS, failingOnce);
    await expect(reader.readText(image)).rejects.toThrow('model file unreadable');
    const page = await reader.readText(image);
    expect(page.lines.map((line) => line.text)).toContain('TOTAL 9.70');
    expect(attempts).toBe(2);
    await reader.close();
  });

  it('finishes the reads asked before close(), refuses those asked after, and loads nothing again', async () => {
    let loads = 0;
    const counted = () => {
      loads += 1;
      return shared();
    };
    const reader = new PaddleReader(PADDLE_DEFAULTS, counted);
    const pending = [reader.readText(image), reader.readText(image)];
    const closing = reader.close();
    await expect(reader.readText(image)).rejects.toBeInstanceOf(ReaderClosedError);
    const pages = await Promise.all(pending);
    await closing;
    expect(pages.map((page) => page.lines.length > 0)).toEqual([true, true]);
    expect(loads).toBe(1);
    await expect(reader.readText(image)).rejects.toThrow('closed');
  });
});
