import { describe, expect, it } from 'vitest';
import { PayloadSchemaCompiler } from '../../shared/event-types/payload-schema.js';
import { BadRequestError } from '../../shared/errors/app-errors.js';

// decisions.md §5: "Schemas are compiled once and cached"; §12: "draft-07 and 2020-12 are both accepted, chosen by $schema; without one, 2020-12."
describe('payload schemas', () => {
  it('compiles a schema once: the same schema, in any key order, gets the same validator', () => {
    const compiler = new PayloadSchemaCompiler();
    const first = compiler.compile({ type: 'object', required: ['total'], properties: { total: { type: 'number' } } });
    const again = compiler.compile({ properties: { total: { type: 'number' } }, required: ['total'], type: 'object' });
    expect(again).toBe(first);
    expect(first({ total: 3 })).toBe(true);
    expect(first({ total: 'three' })).toBe(false);
  });

  it('chooses the dialect by $schema, 2020-12 without one', () => {
    const compiler = new PayloadSchemaCompiler();
    // `items` as an array is a tuple in draft-07 and invalid in 2020-12 (prefixItems replaced it).
    const tuple = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }, { type: 'number' }] };
    expect(compiler.compile(tuple)(['a', 1])).toBe(true);
    expect(compiler.compile(tuple)(['a', 'b'])).toBe(false);
    expect(() => compiler.compile({ type: 'array', items: [{ type: 'string' }] })).toThrow(BadRequestError);
    const prefixed = compiler.compile({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] });
    expect(prefixed(['a', 1])).toBe(true);
    expect(prefixed(['a', 'b'])).toBe(false);
  });

  it('two tenants may use the same $id without colliding', () => {
    const compiler = new PayloadSchemaCompiler();
    const a = compiler.compile({ $id: 'https://example.com/order', type: 'object', required: ['a'] });
    const b = compiler.compile({ $id: 'https://example.com/order', type: 'object', required: ['b'] });
    expect(a({ a: 1 })).toBe(true);
    expect(b({ a: 1 })).toBe(false);
  });
});
