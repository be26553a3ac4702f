import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReactionSchema } from '../../shared/reactors/reaction.js';
import { ROOT } from '../support/root.js';

/** The reaction types a reactor takes, as its schema declares them. */
const TYPES = ReactionSchema.anyOf.map((reaction) => reaction.properties.type.const);
const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

// Issue 31: the docs listed "only POINTS and WEBHOOK reactions" after VOUCHER reactions were built.
describe('the documented reaction types', () => {
  it("docs/events.md gives each type's shape where it says what an event's reactions hold", () => {
    const [, listed] = /Each reaction is ([\s\S]*?)\.\s/.exec(doc('events.md'))!;
    expect(TYPES).toContain('VOUCHER');
    for (const type of TYPES) expect(listed).toContain(`{type: '${type}'`);
  });

  it('docs/api-conventions.md quotes the refusal of an unknown type with every type the API takes', () => {
    expect(doc('api-conventions.md')).toContain(`\`reactions.0.type must be one of ${TYPES.join(', ')}\``);
  });
});
