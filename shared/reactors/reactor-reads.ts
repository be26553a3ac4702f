import { JSONPath } from 'jsonpath-plus';
import { conditionStrings, type RuleConditions } from '../platform/conditions/conditions.js';
import type { PointsExpression } from '../kernel/points-expression.js';
import type { Reaction } from './reaction.js';

/** Every PATH argument of an expression, however deeply its EXPRESSION arguments nest. */
export function expressionPaths(expression: PointsExpression): string[] {
  return expression.arguments.flatMap((argument) => {
    if (argument.type === 'PATH') return [argument.value];
    return argument.type === 'EXPRESSION' ? expressionPaths(argument.value) : [];
  });
}

/** The PATH arguments of a reaction: a WEBHOOK reaction reads nothing of the event. */
export function reactionPaths(reaction: Reaction): string[] {
  return reaction.type === 'POINTS' ? expressionPaths(reaction.points) : [];
}

/** A step that names one key or index, nothing that could reach elsewhere in the document. */
const PLAIN_STEP = /^(?:[A-Za-z_][A-Za-z0-9_]*|\d+)$/;

/**
 * Whether a reactor reads the member (the `user` fact, or a PATH that can reach `$.user`), so the
 * event worker loads members only for the events whose reactors look at them. Only a path of plain
 * keys and indexes whose first key is not `user` is known not to: recursion, wildcards, filters,
 * unions, parent steps and escapes all may, so they count as reading it.
 */
export function readsUser(conditions: RuleConditions | null, reactions: Reaction[]): boolean {
  if (conditions && conditionStrings(conditions, 'fact').includes('user')) return true;
  return reactions.some((reaction) =>
    reactionPaths(reaction).some((path) => {
      const [root, ...steps] = JSONPath.toPathArray(path);
      return root !== '$' || steps.length === 0 || steps[0] === 'user' || !steps.every((step) => PLAIN_STEP.test(step));
    }),
  );
}
