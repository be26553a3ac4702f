import { Engine, type EngineOptions } from 'json-rules-engine';
import { jsonPathProblem, selectJsonPath } from '../json-path/json-path.js';

/**
 * json-rules-engine's condition language, as reactors and receipt rules both use it: a tree of
 * `all`/`any`/`not` groups over leaf conditions `{fact, path, operator, value}`. The engine checks
 * the tree's shape itself when a rule is built.
 */
export type RuleConditions = Record<string, unknown>;

/**
 * The engine's options for tenant-written conditions. Paths are JSONPath without script
 * evaluation: the engine's default resolver runs jsonpath-plus's `safe` eval, which has carried
 * remote-code-execution bugs (docs/dependencies.md). The engine compares what the resolver returns: one value,
 * or the array of several (so `equal` meets a single match and `contains` several). A fact no one
 * provided is undefined, not an error: receipt rules read keys earlier rules may or may not set.
 */
const CONDITION_ENGINE_OPTIONS: EngineOptions = {
  allowUndefinedFacts: true,
  pathResolver: (value: object, path: string) => {
    const found = selectJsonPath(path, value);
    return found.length > 1 ? found : found[0];
  },
};

/**
 * An engine for tenant-written conditions, with the options above and numeric comparisons that no
 * value can make throw. The engine's own read a value as a number with `parseFloat`, which reads
 * an object as text through its `toString` and `valueOf`; JSON can name those as plain properties
 * (`{"toString": "x", "valueOf": 1}` in a payload), and reading such an object throws. Here a value
 * that is not plain data is no number, and the comparison does not hold, as it does not for text.
 */
export function conditionEngine(): Engine {
  const engine = new Engine([], CONDITION_ENGINE_OPTIONS);
  for (const [name, compare] of NUMERIC_COMPARISONS)
    engine.addOperator(
      name,
      (a: unknown, b: unknown) => readsAsNumber(a) && readsAsNumber(b) && compare(a as number, b as number),
    );
  return engine;
}

/** The engine's numeric operators, compared as it compares them (numeric strings included). */
const NUMERIC_COMPARISONS: [string, (a: number, b: number) => boolean][] = [
  ['lessThan', (a, b) => a < b],
  ['lessThanInclusive', (a, b) => a <= b],
  ['greaterThan', (a, b) => a > b],
  ['greaterThanInclusive', (a, b) => a >= b],
];

/** As the engine reads a number (`parseFloat`), for plain data alone: a primitive, or a list of them. */
function readsAsNumber(value: unknown): boolean {
  return isPlainData(value) && !Number.isNaN(Number.parseFloat(value as string));
}

function isPlainData(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isPlainData);
  return value === null || typeof value !== 'object';
}

/**
 * Every string a condition tree holds under `key` (`fact`, `path`), however deeply its
 * `all`/`any`/`not` groups and `{fact: …}` comparison values nest.
 */
export function conditionStrings(node: unknown, key: string): string[] {
  if (Array.isArray(node)) return node.flatMap((child) => conditionStrings(child, key));
  if (!node || typeof node !== 'object') return [];
  const { [key]: value, ...rest } = node as Record<string, unknown>;
  return [
    ...(typeof value === 'string' ? [value] : []),
    ...Object.values(rest).flatMap((child) => conditionStrings(child, key)),
  ];
}

/** What is wrong with the tree's paths, one line each; empty when every path can be evaluated. */
export function conditionPathProblems(conditions: RuleConditions): string[] {
  return conditionStrings(conditions, 'path')
    .map(jsonPathProblem)
    .filter((problem) => problem !== undefined);
}
