import { JSONPath } from 'jsonpath-plus';
import type { PointsExpression, Reaction, RuleConditions } from './reaction.js';

/** Every PATH argument of an expression, however deeply its EXPRESSION arguments nest. */
export function expressionPaths(expression: PointsExpression): string[] {
  return expression.arguments.flatMap((argument) => {
    if (argument.type === 'PATH') return [argument.value];
    return argument.type === 'EXPRESSION' ? expressionPaths(argument.value) : [];
  });
}

/** Every `fact` a condition tree names, in leaves or in `{fact: …}` comparison values. */
function conditionFacts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(conditionFacts);
  if (!node || typeof node !== 'object') return [];
  const { fact, ...rest } = node as Record<string, unknown>;
  return [...(typeof fact === 'string' ? [fact] : []), ...Object.values(rest).flatMap(conditionFacts)];
}

/**
 * Whether a reactor reads the member (the `user` fact, or a PATH into `$.user`), so the event
 * worker loads members only for the events whose reactors look at them. A path whose first step
 * is not a plain key (`$..x`, `$.*`, `$[…]`) may reach the member, so it counts as reading it.
 */
export function readsUser(conditions: RuleConditions | null, reactions: Reaction[]): boolean {
  if (conditions && conditionFacts(conditions).includes('user')) return true;
  return reactions.some((reaction) =>
    expressionPaths(reaction.points).some((path) => {
      const first = JSONPath.toPathArray(path)[1] ?? '';
      return first === 'user' || first === '..' || first === '*' || /^[?(]/.test(first) || first.includes(',');
    }),
  );
}
