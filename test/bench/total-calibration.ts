import type { CalibratedEvidence } from '../../shared/receipts/ocr/parse/consistency.js';

/** One total the parser read on a tune set: what confirmed it, and whether it was the labelled one. */
export interface TotalObservation {
  evidence: string;
  right: boolean;
}

export interface EvidenceFigures {
  read: number;
  right: number;
  /** The lower bound of the share right, what the parser gives a total so confirmed as its confidence. */
  confidence: number;
}

/** 95% two-sided: of many tune sets drawn alike, the share right is under this bound one time in forty. */
const Z = 1.96;

/**
 * The lower bound of Wilson's score interval for `right` of `read`: unlike the plain share, it is
 * low when few totals were seen (3 of 3 is 0.438, 300 of 300 is 0.987), so a way of confirming a
 * total seen rarely does not pass a reviewer's threshold on luck. 0 when none was seen.
 */
export function wilsonLowerBound(right: number, read: number): number {
  if (read === 0) return 0;
  const share = right / read;
  const spread = Z * Math.sqrt((share * (1 - share)) / read + (Z * Z) / (4 * read * read));
  return (share + (Z * Z) / (2 * read) - spread) / (1 + (Z * Z) / read);
}

/** Each calibrated way of confirming a total with its figures, confidences to three decimals, rounded down. */
export function calibrateTotals(
  observations: TotalObservation[],
  evidences: readonly CalibratedEvidence[],
): Record<CalibratedEvidence, EvidenceFigures> {
  return Object.fromEntries(
    evidences.map((evidence) => {
      const seen = observations.filter((observation) => observation.evidence === evidence);
      const right = seen.filter((observation) => observation.right).length;
      const confidence = Math.floor(wilsonLowerBound(right, seen.length) * 1000) / 1000;
      return [evidence, { read: seen.length, right, confidence }];
    }),
  ) as Record<CalibratedEvidence, EvidenceFigures>;
}

/** total-confidence.ts as the calibration writes it, formatted as the repository's formatter leaves it. */
export function confidenceModule(figures: Record<CalibratedEvidence, EvidenceFigures>, sets: string[]): string {
  const entries = Object.entries(figures).map(
    ([evidence, { read, right, confidence }]) =>
      `  // ${right} right of ${read}\n  ${/^\w+$/.test(evidence) ? evidence : `'${evidence}'`}: ${confidence},`,
  );
  return `/**
 * Written by \`npm run ocr:calibrate\` (test/bench/calibrate-totals.ts): for each way a total is
 * confirmed (consistency.ts, TotalEvidence), the lower bound (95%, Wilson) of the share of totals
 * so confirmed that were right on the tune sets it read. Do not edit by hand: calibrate again.
 * Read: ${sets.join(', ')}.
 */
export const CALIBRATED_TOTAL_CONFIDENCE = {
${entries.join('\n')}
};
`;
}
