import type { InferenceSession } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_WIDTH, recogniseLine } from '../../shared/receipts/ocr/paddle/recognise-line.js';

/** A recogniser that reads nothing and notes the shape of each input it is given. */
function recogniser(shapes: readonly number[][]): InferenceSession {
  return {
    inputNames: ['x'],
    outputNames: ['y'],
    run: (feeds: Record<string, { dims: readonly number[] }>) => {
      (shapes as number[][]).push([...feeds.x!.dims]);
      return Promise.resolve({ y: { dims: [1, 0, 2], data: new Float32Array() } });
    },
  } as unknown as InferenceSession;
}

const blank = (width: number, height: number) => ({
  data: new Uint8Array(width * height * 3).fill(255),
  width,
  height,
});

// recognise-line.ts: a line is scaled to the recogniser's 48 pixels high, and squeezed to MAX_LINE_WIDTH if wider.
describe("PaddleOCR's recogniser input", () => {
  it('keeps a line in proportion at 48 pixels high', async () => {
    const shapes: number[][] = [];
    await recogniseLine(recogniser(shapes), [], blank(600, 30), false);
    expect(shapes).toEqual([[1, 3, 48, 960]]);
  });

  it('squeezes a sliver absurdly wide for its height to the widest input', async () => {
    const shapes: number[][] = [];
    await recogniseLine(recogniser(shapes), [], blank(8000, 4), false);
    expect(shapes).toEqual([[1, 3, 48, MAX_LINE_WIDTH]]);
  });
});
