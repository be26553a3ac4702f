/**
 * A confidence as the parser reports it: from 0 to 1, to three decimals. An engine's NaN or
 * negative score is no confidence at all, so it counts as 0 rather than passing a reviewer's
 * threshold check by comparing false both ways.
 */
export function roundConfidence(value: number): number {
  if (!(value > 0)) return 0;
  return Math.round(Math.min(1, value) * 1000) / 1000;
}
