import { expect, it } from 'vitest';
import { CALIBRATED_EVIDENCE } from '../../shared/receipts/ocr/parse/consistency.js';
import { calibrateTotals, confidenceModule, wilsonLowerBound } from '../bench/total-calibration.js';

// Issue 32: "Each read field carries a calibrated confidence … The training or calibration script runs with one
// command and reproduces the committed weights or thresholds."
it('bounds the share right from below, lower the fewer totals were seen, and 0 with none', () => {
  expect(wilsonLowerBound(0, 0)).toBe(0);
  expect(wilsonLowerBound(3, 3)).toBeCloseTo(0.438, 3);
  expect(wilsonLowerBound(300, 300)).toBeCloseTo(0.987, 3);
  expect(wilsonLowerBound(49, 50)).toBeCloseTo(0.895, 3);
});

it('calibrates each way of confirming a total from the totals read so, one none was seen for at 0', () => {
  const observations = [
    ...Array.from({ length: 12 }, () => ({ evidence: 'reached', right: true })),
    { evidence: 'paid', right: true },
    { evidence: 'paid', right: false },
    { evidence: 'contested', right: false },
  ];
  expect(calibrateTotals(observations, CALIBRATED_EVIDENCE)).toEqual({
    'paid and reached': { read: 0, right: 0, confidence: 0 },
    paid: { read: 2, right: 1, confidence: 0.094 },
    'paid with its rounding': { read: 0, right: 0, confidence: 0 },
    reached: { read: 12, right: 12, confidence: 0.757 },
    'paid and reached, not printed': { read: 0, right: 0, confidence: 0 },
    'agreed without labels': { read: 0, right: 0, confidence: 0 },
  });
});

it('writes the table the parser reads, the same for the same reads', () => {
  const figures = calibrateTotals([{ evidence: 'paid', right: true }], CALIBRATED_EVIDENCE);
  const module = confidenceModule(figures, ['the generated set (120)']);
  expect(module).toBe(confidenceModule(figures, ['the generated set (120)']));
  expect(module).toContain('  // 1 right of 1\n  paid: 0.206,\n');
  expect(module).toContain("  'paid and reached': 0,\n");
});
