import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * The longest string a tenant's `pattern` is run against: a longer one does not match. Linear time
 * is still time: a 300 kB string took 50 ms here, and a schema may test one string against many
 * patterns, on the one event loop every tenant shares.
 */
export const MAX_PATTERN_INPUT_LENGTH = 10_000;

/**
 * The regular-expression engine of tenants' JSON schemas (event type payloads, profileSchema), in
 * ajv's `code.regExp` slot: RE2's semantics in pure JavaScript (re2js), linear in the input, never
 * backtracking, so a pattern like `^(a+)+$` cannot stall the process for every tenant (issue 17).
 * Patterns that only a backtracking engine can run (lookaround, backreferences) do not compile,
 * so the schema carrying one is refused.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return {
      test: (input: string) => input.length <= MAX_PATTERN_INPUT_LENGTH && compiled.test(input),
      // ajv keeps one compiled pattern per distinct toString(), as it would per RegExp source.
      toString: () => `/${pattern}/`,
    };
  },
  // What ajv writes for this engine in standalone code, which the project never generates.
  { code: 'linearRegExp' },
);
