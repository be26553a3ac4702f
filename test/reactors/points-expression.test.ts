import { describe, expect, it } from 'vitest';
import { computePoints } from '../../shared/reactors/points-expression.js';
import { MAX_REACTION_POINTS } from '../../shared/reactors/reaction.js';
import type { PointsExpression } from '../../shared/kernel/points-expression.js';

const event = {
  type: 'PURCHASE_MADE',
  payload: { total: '19.99', items: [{ qty: 2 }, { qty: 3 }], visits: 3, label: 'x' },
};
const number = (value: string) => ({ type: 'NUMBER' as const, value });
const path = (value: string) => ({ type: 'PATH' as const, value });

// docs/events.md#points-arithmetic: "operations SUM, MULTIPLY, MIN, MAX; arguments NUMBER, PATH (JSONPath over the event) or EXPRESSION. Points are whole numbers, rounded down."
describe('POINTS expressions', () => {
  it.each<[string, PointsExpression, number]>([
    ['SUM of numbers', { operation: 'SUM', arguments: [number('10'), number('5')] }, 15],
    ['MULTIPLY a path by a number', { operation: 'MULTIPLY', arguments: [path('$.payload.total'), number('10')] }, 199],
    ['MIN', { operation: 'MIN', arguments: [number('50'), path('$.payload.visits')] }, 3],
    ['MAX', { operation: 'MAX', arguments: [number('1'), path('$.payload.items[1].qty')] }, 3],
    [
      'nested EXPRESSION',
      {
        operation: 'SUM',
        arguments: [
          number('5'),
          {
            type: 'EXPRESSION',
            value: { operation: 'MULTIPLY', arguments: [path('$.payload.visits'), number('2.5')] },
          },
        ],
      },
      12,
    ],
    ['a single argument', { operation: 'SUM', arguments: [number('7')] }, 7],
  ])('%s', (_case, expression, points) => {
    expect(computePoints(expression, event)).toBe(points);
  });

  // docs/events.md#points-arithmetic: "POINTS arithmetic is exact through the whole expression and rounded down once at the end."
  it('is exact and rounds once, at the end', () => {
    // 0.1 × 3 is 0.30000000000000004 in floating point; ×10 then floors to 3 only if exact.
    expect(computePoints({ operation: 'MULTIPLY', arguments: [number('0.1'), number('3'), number('10')] }, event)).toBe(
      3,
    );
    // Rounding each step would give 0 + 0 + 0; rounding once gives 1.
    expect(computePoints({ operation: 'SUM', arguments: [number('0.4'), number('0.4'), number('0.4')] }, event)).toBe(
      1,
    );
    expect(computePoints({ operation: 'MULTIPLY', arguments: [number('19.99'), number('1')] }, event)).toBe(19);
  });

  it('a reaction worth more than a billion points is worth nothing, as one gone wrong', () => {
    expect(computePoints({ operation: 'SUM', arguments: [number(String(MAX_REACTION_POINTS))] }, event)).toBe(
      1_000_000_000,
    );
    expect(
      computePoints({ operation: 'SUM', arguments: [number(String(MAX_REACTION_POINTS)), number('1')] }, event),
    ).toBe(0);
    expect(computePoints({ operation: 'MULTIPLY', arguments: [path('$.payload.total'), number('1e30')] }, event)).toBe(
      0,
    );
  });

  it('a path that finds no number, or a negative result, is worth nothing', () => {
    expect(computePoints({ operation: 'SUM', arguments: [path('$.payload.missing'), number('5')] }, event)).toBe(0);
    expect(computePoints({ operation: 'SUM', arguments: [path('$.payload.label')] }, event)).toBe(0);
    expect(computePoints({ operation: 'SUM', arguments: [number('-5')] }, event)).toBe(0);
  });

  // A stored path the save-time check would refuse now (reactors-api.test.ts) must not fail an event.
  it('a line-item filter selects the items that match it', () => {
    expect(computePoints({ operation: 'SUM', arguments: [path('$.payload.items[?(@.qty > 2)].qty')] }, event)).toBe(3);
  });

  it('never evaluates script in a path: a script is worth nothing, without throwing', () => {
    const hostile = path("$..[?(@.constructor.constructor('return process')().exit(1))]");
    expect(computePoints({ operation: 'SUM', arguments: [hostile] }, event)).toBe(0);
    expect(computePoints({ operation: 'SUM', arguments: [path('$.payload.items[(@.length-1)].qty')] }, event)).toBe(0);
  });
});
