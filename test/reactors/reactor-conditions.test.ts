import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/platform/errors/app-errors.js';
import { ReactorConditions } from '../../shared/reactors/reactor-conditions.js';

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
});
