import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/** The longest string a tenant's `pattern` is run against: a longer one fails the validation. */
export const MAX_PATTERN_INPUT_LENGTH = 10_000;

/**
 * The most instructions a tenant's pattern may compile to. A linear engine's time is the input's
 * length times the program's size: `(?:a?){1000}a{1000}` compiles to 3,003 and took 740 ms over
 * 10,000 characters here, where the patterns schemas really use (an email, a date, a code with
 * bounded repetition) stay under a hundred.
 */
export const MAX_PATTERN_INSTRUCTIONS = 500;

/**
 * The pattern work one validation may do, in instructions times characters: about 8 ms here (re2js
 * runs some 4 ns a unit), so one tenant's payloads, at its whole rate limit, cannot hold the
 * process for the others. A payload of many long strings, each under a pattern, fails the
 * validation past it, and so does one string of the longest length under the most complex pattern.
 */
export const MAX_PATTERN_WORK = 2_000_000;

/** A validation stopped because its patterns would cost too much: the payload is refused, never passed. */
export class PatternLimitError extends Error {}

let workLeft = Number.POSITIVE_INFINITY;

/**
 * Runs one validation (synchronous, as ajv's are) under MAX_PATTERN_WORK. Throws PatternLimitError
 * when its patterns meet a string over MAX_PATTERN_INPUT_LENGTH or spend the work.
 */
export function withPatternBudget<T>(validate: () => T): T {
  workLeft = MAX_PATTERN_WORK;
  try {
    return validate();
  } finally {
    workLeft = Number.POSITIVE_INFINITY;
  }
}

/**
 * The regular-expression engine of tenants' JSON schemas (event type payloads, profileSchema), in
 * ajv's `code.regExp` slot: RE2's semantics in pure JavaScript (re2js), never backtracking, so a
 * pattern like `^(a+)+$` cannot stall the process for every tenant (issue 17). Patterns that only a
 * backtracking engine can run (lookaround, backreferences), or that compile to more than
 * MAX_PATTERN_INSTRUCTIONS, do not compile, so the schema carrying one is refused.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    const instructions = (compiled.re2() as unknown as { prog: { numInst(): number } }).prog.numInst();
    if (instructions > MAX_PATTERN_INSTRUCTIONS)
      throw new Error(
        `the pattern ${pattern} is too complex: it compiles to ${instructions} instructions, at most ${MAX_PATTERN_INSTRUCTIONS} are run`,
      );
    return {
      test: (input: string) => {
        if (input.length > MAX_PATTERN_INPUT_LENGTH)
          throw new PatternLimitError(`a string under a pattern is longer than ${MAX_PATTERN_INPUT_LENGTH} characters`);
        workLeft -= instructions * Math.max(1, input.length);
        if (workLeft < 0)
          throw new PatternLimitError('the strings under patterns are too long, taken together, to check');
        return compiled.test(input);
      },
      // ajv keeps one compiled pattern per distinct toString(), as it would per RegExp source.
      toString: () => `/${pattern}/`,
    };
  },
  // What ajv writes for this engine in standalone code, which the project never generates.
  { code: 'linearRegExp' },
);
