import { JSONPath } from 'jsonpath-plus';

/**
 * JSONPath for tenant-written expressions (reactor PATH arguments and condition paths), always
 * with script evaluation off: jsonpath-plus's evaluators have carried remote-code-execution bugs
 * (STACK.md). With evaluation off, filters `[?(…)]` and script segments `[(…)]` cannot run, and
 * jsonpath-plus throws when it reaches one, so they are refused when an expression is saved.
 */
export function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith('$')) return `"${path}" must start with $`;
  const segments = JSONPath.toPathArray(path);
  const script = segments.find((segment) => segment.startsWith('?(') || segment.startsWith('('));
  return script ? `"${path}" uses the script expression "${script}": filters and scripts are not evaluated` : undefined;
}

/**
 * The values a path selects. A path that cannot be evaluated selects nothing rather than throwing:
 * an event must never fail its registration over an expression (one saved before this check, say).
 */
export function selectJsonPath(path: string, json: object): unknown[] {
  try {
    return JSONPath({ path, json, eval: false, wrap: true }) as unknown[];
  } catch {
    return [];
  }
}
