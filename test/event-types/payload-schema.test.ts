import { describe, expect, it } from 'vitest';
import { PayloadSchemaCompiler } from '../../shared/platform/validation/payload-schema.js';
import { BadRequestError } from '../../shared/platform/errors/app-errors.js';
import { MAX_PATTERN_INPUT_LENGTH, MAX_PATTERN_INSTRUCTIONS } from '../../shared/platform/validation/linear-regexp.js';
import { finished, spawnEntry } from '../support/run-process.js';

// docs/events.md#payload-schemas: "Schemas are compiled once and cached"; "draft-07 and 2020-12 are both accepted, chosen by $schema; without one, 2020-12."
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
    const tuple = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'number' }],
    };
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

// Issue 17: "An event type whose schema has pattern: "^(a+)+$" and a payload of 27 as and a ! took
// 1.6 s and blocked every tenant's requests … the time doubles per character." With a backtracking
// engine the 40 characters below would take about 3 hours.
describe('tenant patterns run in linear time', () => {
  const evil = 'a'.repeat(40) + '!';

  /** Validates in a process of its own, killed after `deadlineMs`: a stall fails the test instead of hanging the run. */
  async function validateApart(schema: object, payloads: unknown[], deadlineMs = 20_000): Promise<boolean[]> {
    const child = spawnEntry('test/support/validate-payloads.ts', [JSON.stringify({ schema, payloads })], {});
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    const result = await finished(child);
    clearTimeout(timer);
    if (result.code !== 0)
      throw new Error(`validation did not finish within ${deadlineMs} ms: ${result.stderr.slice(0, 300)}`);
    return JSON.parse(result.stdout) as boolean[];
  }

  it('a catastrophic pattern answers at once, on pattern and patternProperties alike, in both dialects', async () => {
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema#']) {
      const schema = {
        $schema,
        type: 'object',
        properties: { code: { type: 'string', pattern: '^(a+)+$' } },
        patternProperties: { '^(x+x+)+y$': { type: 'number' } },
      };
      const payloads = [
        { code: evil },
        { code: 'aaaa' },
        { ['x'.repeat(40)]: 'not a number' },
        { ['x'.repeat(40) + 'y']: 'not a number' },
      ];
      expect(await validateApart(schema, payloads)).toEqual([false, true, true, false]);
    }
  }, 60_000);

  it('patterns keep their ECMAScript meaning for what both engines share', () => {
    const validate = new PayloadSchemaCompiler().compile({
      type: 'string',
      pattern: '^(?<area>\\d{3})-\\d{4}$|^\\p{Lu}\\w*$',
    });
    expect(['555-1234', 'Émile_2'].map((value) => validate(value))).toEqual([true, true]);
    expect(['55-1234', 'émile'].map((value) => validate(value))).toEqual([false, false]);
  });

  it('a pattern only a backtracking engine can run (lookahead, backreference), or too large a program, is refused as the schema', () => {
    const compiler = new PayloadSchemaCompiler();
    expect(() => compiler.compile({ type: 'string', pattern: '^(?=a)a+$' }, 'schema')).toThrow(/does not compile/);
    expect(() => compiler.compile({ type: 'string', pattern: '^(a)\\1$' }, 'schema')).toThrow(/does not compile/);
    // Linear in the input, but 3,003 instructions long: 740 ms over 10,000 characters.
    expect(() => compiler.compile({ type: 'string', pattern: '(?:a?){1000}a{1000}$' }, 'schema')).toThrow(
      new RegExp(`at most ${MAX_PATTERN_INSTRUCTIONS}`),
    );
    expect(() =>
      compiler.compile({ type: 'string', pattern: '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$' }, 'schema'),
    ).not.toThrow();
  });

  it(`a string longer than ${MAX_PATTERN_INPUT_LENGTH} characters under a pattern fails the validation, under not as well; without one it is not limited`, () => {
    const compiler = new PayloadSchemaCompiler();
    const patterned = compiler.compile({ type: 'string', pattern: '^a+$' });
    expect(patterned('a'.repeat(MAX_PATTERN_INPUT_LENGTH))).toBe(true);
    expect(patterned('a'.repeat(MAX_PATTERN_INPUT_LENGTH + 1))).toBe(false);
    expect(patterned.errors?.[0]?.message).toMatch(/longer than/);
    expect(compiler.compile({ not: { type: 'string', pattern: '^b' } })('a'.repeat(MAX_PATTERN_INPUT_LENGTH + 1))).toBe(
      false,
    );
    expect(compiler.compile({ type: 'string' })('a'.repeat(MAX_PATTERN_INPUT_LENGTH + 1))).toBe(true);
  });

  it('many long strings under patterns, together past the work budget, fail the validation', () => {
    const validate = new PayloadSchemaCompiler().compile({
      type: 'array',
      items: { type: 'string', pattern: '^[a-z]{0,50}x$' },
    });
    const long = 'a'.repeat(MAX_PATTERN_INPUT_LENGTH);
    expect(validate([long])).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe('pattern');
    expect(validate(Array.from({ length: 200 }, () => long))).toBe(false);
    expect(validate.errors?.[0]?.message).toMatch(/too long, taken together/);
    expect(validate(['aax'])).toBe(true);
  });
});
