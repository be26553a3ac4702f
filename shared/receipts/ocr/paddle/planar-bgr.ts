/**
 * Interleaved RGB pixels as the planar blue, green, red floats PaddleOCR's models were trained on,
 * each value (0..1) passed through `scale` for its channel (0 blue, 1 green, 2 red).
 */
export function planarBgr(rgb: Uint8Array, scale: (value: number, channel: number) => number): Float32Array {
  const plane = rgb.length / 3;
  const planes = new Float32Array(rgb.length);
  for (let pixel = 0; pixel < plane; pixel += 1) {
    for (let channel = 0; channel < 3; channel += 1) {
      planes[channel * plane + pixel] = scale(rgb[pixel * 3 + 2 - channel]! / 255, channel);
    }
  }
  return planes;
}
