import { describe, expect, it } from 'vitest';
import { RuleEngineError } from '../../shared/platform/errors/app-errors.js';
import { decide, decides, needsLookup, REVIEW_CHECKS, spotCheckDraw } from '../../shared/receipts/automated-review.js';
import type { ReviewFacts, ReviewedReceipt, RuleRun } from '../../shared/receipts/review-facts.js';
import { reviewSettings } from '../../shared/receipts/review-settings.js';

// docs/receipts.md#automated-checks, decided from facts alone: no PostgreSQL, no Redis.

const NOW = new Date('2026-11-28T12:00:00Z');

const RECEIPT: ReviewedReceipt = {
  id: '5f0c7d0e-9a8b-4c6d-8e2f-1a2b3c4d5e6f',
  serviceDate: '2026-11-20',
  timezone: 'UTC',
  merchantName: 'Corner Shop',
  merchantLegalName: 'CORNER SHOP SDN BHD',
  locationIdentifier: null,
  submissionPosition: null,
  formatSlug: null,
  total: 12.5,
  ocrConfidence: 0.93,
  fieldConfidences: { total: 0.9, serviceDate: 0.95 },
};

function facts(changes: Partial<ReviewFacts> = {}, review: Record<string, unknown> = {}): ReviewFacts {
  return {
    receipt: RECEIPT,
    sameImageAs: null,
    similarImage: null,
    sameDetailsAs: null,
    sameClaimAs: null,
    settings: reviewSettings({ review }),
    now: NOW,
    venues: null,
    claimsOfFormatToday: null,
    claimsAtMerchantToday: null,
    rules: null,
    ...changes,
  };
}

const RULE_SET = {
  id: 'b1c2d3e4-0000-4000-8000-000000000001',
  rules: [
    { id: 'basket', type: 'BASKET' as const },
    { id: 'custom', type: 'CUSTOM' as const },
  ],
};

function ran(result: Record<string, unknown>, outcomes: Record<string, 'success' | 'failure'>): RuleRun {
  return {
    ruleSet: RULE_SET,
    result: {
      result,
      rules: Object.entries(outcomes).map(([id, outcome]) => ({ id, name: id, priority: 1, outcome })),
      stopped: false,
    },
  };
}

describe('the automated decision, from its facts', () => {
  it('authorizes a claim nothing stands against, every check recorded as passed', () => {
    const decision = decide(facts());
    expect(decision).toMatchObject({ verdict: 'AUTHORIZE', reason: 'VALID_DATA', ruleSetId: null });
    expect(decision.checks.map(({ check, passed }) => [check, passed])).toEqual([
      ['DUPLICATE', true],
      ['INVALID_DATE', true],
      ['INVALID_MERCHANT', true],
      ['INVALID_VENUE', true],
      ['FORMAT_SUBMISSION_LIMIT_EXCEEDED', true],
      ['MERCHANT_SUBMISSION_LIMIT_EXCEEDED', true],
      ['INSUFFICIENT_DATA', true],
      ['RULE_ENGINE', true],
      ['SPOT_CHECK', true],
    ]);
  });

  it('stops at the first check that decides: a duplicate is not looked at further', () => {
    const decision = decide(facts({ sameImageAs: 'a1', receipt: { ...RECEIPT, serviceDate: '2027-01-01' } }));
    expect(decision).toMatchObject({ verdict: 'REJECT', reason: 'DUPLICATE' });
    expect(decision.checks).toEqual([{ check: 'DUPLICATE', passed: false, detail: 'the same image as receipt a1' }]);
  });

  it("rejects a date after today or older than maxAgeDays, by the receipt's own zone", () => {
    expect(decide(facts({ receipt: { ...RECEIPT, serviceDate: '2026-11-29' } })).reason).toBe('INVALID_DATE');
    expect(decide(facts({ receipt: { ...RECEIPT, serviceDate: '2026-11-18' } }, { maxAgeDays: 7 })).reason).toBe(
      'INVALID_DATE',
    );
    // Already the 29th in Auckland at noon UTC on the 28th.
    const auckland = { ...RECEIPT, serviceDate: '2026-11-29', timezone: 'Pacific/Auckland' };
    expect(decide(facts({ receipt: auckland })).verdict).toBe('AUTHORIZE');
  });

  it('accepts a listed merchant by its trading or its legal name, and rejects another', () => {
    expect(decide(facts({}, { merchants: ['corner shop sdn bhd'] })).verdict).toBe('AUTHORIZE');
    expect(decide(facts({}, { merchants: ['Other Store'] }))).toMatchObject({
      verdict: 'REJECT',
      reason: 'INVALID_MERCHANT',
    });
    const unread = { ...RECEIPT, merchantName: null };
    expect(decide(facts({ receipt: unread }, { merchants: ['Other Store'] }))).toMatchObject({
      verdict: 'ABSTAIN',
      reason: 'INSUFFICIENT_DATA',
    });
  });

  it("with requireVenue, a claim is authorized only at one of the tenant's venues", () => {
    const venues = new Map([['v1', { identifiers: ['STORE-7'], position: null, radiusMeters: 0 }]]);
    const required = { requireVenue: true };
    const atStore = decide(facts({ venues, receipt: { ...RECEIPT, locationIdentifier: 'STORE-7' } }, required));
    expect(atStore.verdict).toBe('AUTHORIZE');
    expect(atStore.checks).toContainEqual({ check: 'INVALID_VENUE', passed: true, detail: 'made at venue v1' });
    expect(decide(facts({ venues, receipt: { ...RECEIPT, locationIdentifier: 'STORE-8' } }, required)).reason).toBe(
      'INVALID_VENUE',
    );
    // Venues the setting asks for that were never read fail the review, to be retried: never a pass.
    expect(() => decide(facts({}, required))).toThrow('not given the venues');
  });

  it("counts the day's earlier claims against the limits", () => {
    const ofFormat = { ...RECEIPT, formatSlug: 'till-roll' };
    expect(decide(facts({ receipt: ofFormat, claimsOfFormatToday: 3 }, { limits: { perFormat: 3 } }))).toMatchObject({
      verdict: 'REJECT',
      reason: 'FORMAT_SUBMISSION_LIMIT_EXCEEDED',
    });
    expect(decide(facts({ receipt: ofFormat, claimsOfFormatToday: 2 }, { limits: { perFormat: 3 } })).verdict).toBe(
      'AUTHORIZE',
    );
    expect(decide(facts({ claimsAtMerchantToday: 1 }, { limits: { perMerchant: 1 } })).reason).toBe(
      'MERCHANT_SUBMISSION_LIMIT_EXCEEDED',
    );
    expect(() => decide(facts({}, { limits: { perMerchant: 1 } }))).toThrow(
      'not given the claims today at Corner Shop',
    );
    // A claim without a format is not counted against the format's limit.
    expect(decide(facts({}, { limits: { perFormat: 0 } })).verdict).toBe('AUTHORIZE');
  });

  it('leaves a claim read without enough confidence to a person', () => {
    const unsure = { ...RECEIPT, fieldConfidences: { total: 0.3, serviceDate: 0.95 } };
    expect(decide(facts({ receipt: unsure }))).toMatchObject({ verdict: 'ABSTAIN', reason: 'INSUFFICIENT_DATA' });
  });

  it("takes the rule set's REJECT or ABSTAIN, an unknown reason as OTHER, and an engine that threw as ABSTAIN", () => {
    expect(
      decide(facts({ rules: ran({ verdict: 'REJECT', reason: 'SUSPICIOUS' }, { custom: 'success' }) })),
    ).toMatchObject({ verdict: 'REJECT', reason: 'SUSPICIOUS', ruleSetId: RULE_SET.id });
    expect(decide(facts({ rules: ran({ verdict: 'ABSTAIN', reason: 'NOT_A_REASON' }, {}) })).reason).toBe('OTHER');
    const threw = decide(facts({ rules: { ruleSet: RULE_SET, error: new RuleEngineError('no comparing that') } }));
    expect(threw).toMatchObject({ verdict: 'ABSTAIN', reason: 'RULE_ENGINE_THREW_ERROR', ruleEngineResult: null });
    expect(threw.checks.at(-1)).toEqual({ check: 'RULE_ENGINE', passed: false, detail: 'no comparing that' });
  });

  it('rejects a claim none of whose BASKET rules matched, and authorizes one where one did', () => {
    expect(decide(facts({ rules: ran({}, { basket: 'failure', custom: 'success' }) })).reason).toBe(
      'NO_QUALIFYING_PRODUCTS',
    );
    const authorized = decide(facts({ rules: ran({}, { basket: 'success' }) }));
    expect(authorized).toMatchObject({ verdict: 'AUTHORIZE', reason: 'VALID_DATA', ruleSetId: RULE_SET.id });
  });

  it("draws a spot check from the receipt's id, the same on every run", () => {
    expect(decide(facts({}, { spotCheckRate: 1 }))).toMatchObject({
      verdict: 'ABSTAIN',
      reason: 'FLAGGED_FOR_SPOT_CHECK',
    });
    const draw = spotCheckDraw(RECEIPT.id);
    expect(draw).toBe(spotCheckDraw(RECEIPT.id));
    expect(decide(facts({}, { spotCheckRate: draw })).verdict).toBe('AUTHORIZE');
  });

  it('tells the loader which check decides and which asks for a lookup, so what a later one needs is never read', () => {
    const decidesFirst = (claim: ReviewFacts) => REVIEW_CHECKS.find((check) => decides(claim, check));
    expect(decidesFirst(facts({ sameImageAs: 'a1' }))).toBe('DUPLICATE');
    const overLimit = facts({ claimsAtMerchantToday: 5 }, { limits: { perMerchant: 5 } });
    expect(decidesFirst(overLimit)).toBe('MERCHANT_SUBMISSION_LIMIT_EXCEEDED');
    expect(decidesFirst(facts())).toBeUndefined();
    expect(needsLookup(overLimit, 'MERCHANT_SUBMISSION_LIMIT_EXCEEDED')).toBe(true);
    expect(needsLookup(overLimit, 'FORMAT_SUBMISSION_LIMIT_EXCEEDED')).toBe(false);
    expect(needsLookup(facts({}, { requireVenue: true }), 'INVALID_VENUE')).toBe(true);
    expect(needsLookup(facts(), 'INVALID_VENUE')).toBe(false);
  });
});
