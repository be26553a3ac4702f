/** What the INSUFFICIENT_DATA check reads of a claim: the columns a parse fills (parsed-claim.ts). */
export interface ClaimData {
  total?: number | null;
  /** YYYY-MM-DD */
  serviceDate?: string | null;
  ocrConfidence?: number | null;
  fieldConfidences: Record<string, number>;
}

/**
 * "no total or date, or confidence under review.minConfidence: ABSTAIN" (docs/receipts.md#automated-checks):
 * why the claim cannot be decided on its data, or undefined when it can. Pure, so the OCR scorer
 * counts the wrong totals this check lets through with the reviewer's own rule (issue 32, "wrong
 * totals authorized").
 */
export function dataShortfall(claim: ClaimData, minConfidence: number): string | undefined {
  const missing = [
    typeof claim.total === 'number' ? undefined : 'total',
    claim.serviceDate ? undefined : 'date',
  ].filter(Boolean);
  if (missing.length) return `no ${missing.join(' and ')} could be read`;
  if ((claim.ocrConfidence ?? 0) < minConfidence)
    return `confidence ${claim.ocrConfidence ?? 0} is under ${minConfidence}`;
  // The decision rests on the total and the date: each must be read as surely as the page (issue 22,
  // "a field the parser is unsure of": the parser gives a total nothing confirms a low confidence).
  const unsure = (['total', 'serviceDate'] as const).filter(
    (field) => (claim.fieldConfidences[field] ?? 1) < minConfidence,
  );
  if (unsure.length)
    return unsure
      .map((field) => `the ${field}'s confidence ${claim.fieldConfidences[field]} is under ${minConfidence}`)
      .join('; ');
  return undefined;
}
