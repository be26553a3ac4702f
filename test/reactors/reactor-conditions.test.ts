import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/platform/errors/app-errors.js';
import { ReactorConditions } from '../../shared/reactors/reactor-conditions.js';
import { CRAFTED_NUMBER, LISTED_TIER_CONDITIONS } from '../support/payload-traps.js';

const facts = {
  event: { type: 'PURCHASE_MADE', occurredAt: '2026-11-01T10:00:00Z' },
  payload: { total: 42, storeId: 'leeds-1', tags: ['coffee', 'cake'] },
  user: { accountNumber: 7, profile: { city: 'Leeds' } },
};

// docs/events.md#reactors: "conditions (the json-rules-engine condition language, over the facts event, payload, user)"
describe('reactor conditions', () => {
  it('reads the three facts with paths', async () => {
    const conditions = new ReactorConditions({
      all: [
        { fact: 'payload', path: '$.total', operator: 'greaterThanInclusive', value: 40 },
        { fact: 'user', path: '$.profile.city', operator: 'equal', value: 'Leeds' },
        { fact: 'event', path: '$.type', operator: 'equal', value: 'PURCHASE_MADE' },
        { fact: 'payload', path: '$.tags', operator: 'contains', value: 'cake' },
      ],
    });
    expect(await conditions.match(facts)).toBe(true);
    expect(await conditions.match({ ...facts, payload: { ...facts.payload, total: 10 } })).toBe(false);
  });

  it('any and nesting', async () => {
    const conditions = new ReactorConditions({
      any: [
        { fact: 'payload', path: '$.storeId', operator: 'equal', value: 'york-1' },
        { all: [{ fact: 'user', path: '$.accountNumber', operator: 'lessThan', value: 10 }] },
      ],
    });
    expect(await conditions.match(facts)).toBe(true);
    expect(await conditions.match({ ...facts, user: null })).toBe(false);
  });

  it("refuses conditions that are not the engine's language, or use an unknown operator, with 400", async () => {
    expect(() => new ReactorConditions({ nonsense: true })).toThrow(ValidationError);
    await expect(
      ReactorConditions.check({ all: [{ fact: 'payload', path: '$.total', operator: 'isBig', value: 1 }] }),
    ).rejects.toThrow(ValidationError);
  });

  it('never evaluates script in a path: refused when saved, and a stored one matches nothing instead of failing the event', async () => {
    const script = {
      all: [
        { fact: 'payload', path: "$[?(@.constructor.constructor('return process')())]", operator: 'equal', value: 1 },
      ],
    };
    await expect(ReactorConditions.check(script)).rejects.toThrow(ValidationError);
    expect(await new ReactorConditions(script).match(facts)).toBe(false);
  });

  // Issue 31: "POST /v1/events/test_reaction with a payload number sent as {"toString":"x","valueOf":1} answers 500."
  it('reads a value that is not plain data as no number: that comparison does not hold, and the others still decide', async () => {
    const overOrMember = (value: unknown) =>
      new ReactorConditions({
        any: [
          { fact: 'payload', path: '$.total', operator: 'greaterThan', value },
          { fact: 'payload', path: '$.member', operator: 'equal', value: true },
        ],
      });
    for (const payload of [
      { total: CRAFTED_NUMBER },
      { total: [1, CRAFTED_NUMBER] },
      { total: 5, floor: CRAFTED_NUMBER },
    ]) {
      const over = overOrMember('floor' in payload ? { fact: 'payload', path: '$.floor' } : 0);
      expect(await over.match({ ...facts, payload })).toBe(false);
      expect(await over.match({ ...facts, payload: { ...payload, member: true } })).toBe(true);
    }
    // Plain data reads as the engine has always read it: numbers, numeric text, a list of one.
    for (const total of [5, '5', [5]]) expect(await overOrMember(0).match({ ...facts, payload: { total } })).toBe(true);
  });

  it("does not hold, rather than throw, when the event's data cannot be evaluated as the conditions say", async () => {
    const conditions = await ReactorConditions.check(LISTED_TIER_CONDITIONS);
    const payload = { kind: 'listed', tier: 'gold' };
    expect(await conditions.match({ ...facts, payload: { ...payload, acceptedTiers: 5 } })).toBe(false);
    expect(await conditions.match({ ...facts, payload: { ...payload, acceptedTiers: ['gold'] } })).toBe(true);
    const inText = new ReactorConditions({
      all: [{ fact: 'payload', path: '$.code', operator: 'in', value: 'ABCDEF' }],
    });
    expect(await inText.match({ ...facts, payload: { code: { toString: 'x' } } })).toBe(false);
    expect(await inText.match({ ...facts, payload: { code: 'CD' } })).toBe(true);
  });
});
