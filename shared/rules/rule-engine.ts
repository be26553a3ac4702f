import { Engine, type TopLevelCondition } from 'json-rules-engine';
import { CONDITION_ENGINE_OPTIONS } from '../conditions/conditions.js';
import { REQUEST_FACT, STOP_KEY, type ExecutableRule } from './rule-definition.js';

export interface RuleOutcome {
  id: string;
  name: string;
  priority: number;
  outcome: 'success' | 'failure';
}

/** decisions.md §9: the rule engine result. */
export interface RuleEngineResult {
  result: Record<string, unknown>;
  rules: RuleOutcome[];
  stopped: boolean;
}

/** A custom operator (decisions.md §9: `venueMatches`), bound to what one run needs to know. */
export interface RuleOperator {
  name: string;
  evaluate: (factValue: unknown, conditionValue: unknown) => boolean;
}

/**
 * Runs a rule set on json-rules-engine as receipts-interface.md describes it: higher priority first,
 * equal priorities together, `stopRuleEngine` ending the run once its priority has run, and
 * chaining: every key set so far is a fact for the rules of lower priority.
 *
 * Each priority runs in an engine of its own, built for this run. An engine's run state is the
 * engine's (`stop()`, `status`), so sharing one between concurrent runs would let one run stop
 * another; and rules of one priority all see the same facts, whatever order they finish in.
 *
 * `facts` are the run's own (the catalogue); a result key never shadows them or `request`.
 */
export async function runRules(
  rules: readonly ExecutableRule[],
  transaction: Record<string, unknown>,
  facts: Record<string, unknown> = {},
  operators: readonly RuleOperator[] = [],
): Promise<RuleEngineResult> {
  const result = new Map<string, unknown>();
  const outcomes: RuleOutcome[] = [];
  for (const group of byPriority(rules)) {
    const engine = new Engine([], CONDITION_ENGINE_OPTIONS);
    for (const operator of operators) engine.addOperator(operator.name, operator.evaluate);
    group.forEach((rule, index) => engine.addRule({ name: String(index), conditions: rule.conditions as unknown as TopLevelCondition, event: { type: 'rule' } }));
    const { results } = await engine.run({ ...Object.fromEntries(result), ...facts, [REQUEST_FACT]: { transaction } });
    const succeeded = new Set(results.map((ruleResult) => ruleResult.name));

    let stop = false;
    group.forEach((rule, index) => {
      const outcome = succeeded.has(String(index)) ? 'success' : 'failure';
      outcomes.push({ id: rule.id, name: rule.name, priority: rule.priority, outcome });
      for (const { key, value } of rule.resultParams[outcome]) {
        if (key === STOP_KEY) stop ||= value === true;
        else if (!result.has(key)) result.set(key, value);
      }
    });
    if (stop) return { result: Object.fromEntries(result), rules: outcomes, stopped: true };
  }
  return { result: Object.fromEntries(result), rules: outcomes, stopped: false };
}

/** Rules grouped by priority, highest first; within a group, in the set's order. */
function byPriority(rules: readonly ExecutableRule[]): ExecutableRule[][] {
  const groups = new Map<number, ExecutableRule[]>();
  for (const rule of rules) groups.set(rule.priority, [...(groups.get(rule.priority) ?? []), rule]);
  return [...groups.entries()].sort(([a], [b]) => b - a).map(([, group]) => group);
}
