import { describe, expect, it } from 'vitest';
import type { Reaction } from '../../shared/reactors/reaction.js';
import { readsUser } from '../../shared/reactors/reactor-reads.js';

const points = (path: string): Reaction[] => [
  {
    type: 'POINTS',
    points: {
      operation: 'SUM',
      arguments: [
        { type: 'NUMBER', value: '1' },
        { type: 'PATH', value: path },
      ],
    },
  },
];
const fixed: Reaction[] = [
  { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } },
];

// The event worker loads a member only when a reactor reads it (docs/events.md#reactors: facts `event`, `payload`, `user`).
describe('which reactors read the member', () => {
  it.each<[string, Record<string, unknown> | null, Reaction[], boolean]>([
    [
      'payload only',
      { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThan', value: 1 }] },
      points('$.payload.total'),
      false,
    ],
    ['no conditions, fixed points', null, fixed, false],
    [
      'a user condition, nested',
      { any: [{ all: [{ fact: 'user', path: '$.profile.city', operator: 'equal', value: 'Leeds' }] }] },
      fixed,
      true,
    ],
    [
      'a comparison against a user value',
      { all: [{ fact: 'payload', path: '$.a', operator: 'equal', value: { fact: 'user', path: '$.accountNumber' } }] },
      fixed,
      true,
    ],
    ['a PATH into the user', null, points('$.user.profile.attributes.tier'), true],
    ['a recursive PATH', null, points('$..total'), true],
    ['a wildcard PATH', null, points('$.*.total'), true],
    ['a parent step', null, points('$.payload^.user.accountNumber'), true],
    ['a backtick escape', null, points('$.`user.accountNumber'), true],
    ['a nested root', null, points('$.$.user.accountNumber'), true],
    ['an index into the payload', null, points('$.payload.items[0].qty'), false],
  ])('%s', (_case, conditions, reactions, expected) => {
    expect(readsUser(conditions, reactions)).toBe(expected);
  });
});
