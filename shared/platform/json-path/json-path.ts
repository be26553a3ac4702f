import { JSONPath } from 'jsonpath-plus';
import { evaluateFilter, FilterSyntaxError, parseFilter, type FilterExpression } from './filter-expression.js';

/**
 * JSONPath for tenant-written expressions (reactor PATH arguments and condition paths, rule
 * conditions). Script evaluation never runs: jsonpath-plus's evaluators have carried
 * remote-code-execution bugs (docs/dependencies.md). Filters `[?(…)]` are read by the comparison grammar of
 * filter-expression.ts instead; script segments `[(…)]` are refused.
 */
export function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith('$')) return `"${shown(path)}" must start with $`;
  for (const segment of JSONPath.toPathArray(path)) {
    if (segment.startsWith('('))
      return `"${shown(path)}" uses the script expression "${shown(segment)}": scripts are not evaluated`;
    if (segment.startsWith('?(')) {
      try {
        parseFilter(segment.slice(2, -1));
      } catch (error) {
        if (!(error instanceof FilterSyntaxError)) throw error;
        return `"${shown(path)}" has the filter "${shown(segment)}" that is not a comparison of @ fields with values (${error.message})`;
      }
    }
  }
  return undefined;
}

/** A path as an error message quotes it: the start of a long one is enough to find it. */
function shown(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const parsedFilters = new Map<string, FilterExpression>();

/**
 * jsonpath-plus's hook for a custom evaluator: it passes each filter's text (`@` rewritten to
 * `_$_v`) and the item under test as `_$_v`. What the grammar refuses throws, and the path then
 * selects nothing.
 */
function evaluateFilterScript(script: string, context: { _$_v: unknown }): boolean {
  let expression = parsedFilters.get(script);
  if (!expression) {
    expression = parseFilter(script);
    parsedFilters.set(script, expression);
  }
  return evaluateFilter(expression, context._$_v);
}

/**
 * The values a path selects. A path that cannot be evaluated selects nothing rather than throwing:
 * an event must never fail its registration over an expression (one saved before this check, say).
 */
export function selectJsonPath(path: string, json: object): unknown[] {
  try {
    return JSONPath({ path, json, eval: evaluateFilterScript as unknown as false, wrap: true }) as unknown[];
  } catch {
    return [];
  }
}
