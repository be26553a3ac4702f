import type { Engine, TopLevelCondition } from 'json-rules-engine';
import { conditionEngine } from '../platform/conditions/conditions.js';
import { REQUEST_FACT, STOP_KEY, type ExecutableRule } from './rule-definition.js';

export interface RuleOutcome {
  id: string;
  name: string;
  priority: number;
  outcome: 'success' | 'failure';
}

/**
 * docs/receipts.md#running-a-rule-set: the rule engine result. A type, not an interface: a review
 * answers it as a JSON object (`Record<string, unknown>`), which only a type is assignable to.
 */
export type RuleEngineResult = {
  result: Record<string, unknown>;
  rules: RuleOutcome[];
  stopped: boolean;
};

/** A custom operator (docs/receipts.md#venues: `venueMatches`), bound to what one run needs to know. */
export interface RuleOperator {
  name: string;
  evaluate: (factValue: unknown, conditionValue: unknown) => boolean;
}

/**
 * A rule set ready to run on json-rules-engine, as docs/receipts.md#running-a-rule-set describes
 * it: higher priority first, equal priorities together, `stopRuleEngine` ending the run once its
 * priority has run, and chaining: every key set so far is a fact for the rules of lower priority.
 *
 * Each priority has an engine of its own. An engine's run state is the engine's (`stop()`,
 * `status`), so one engine must never serve two runs at once: engines are built once and lent to
 * one run at a time, and a run that finds none idle builds its own set, kept for the next. Rules of
 * one priority thus all see the same facts, whatever order they finish in.
 *
 * `facts` are the run's own (the catalogue); a result key never shadows them or `request`.
 */
export class CompiledRules {
  private readonly groups: ExecutableRule[][];
  private readonly idle: Engine[][] = [];

  constructor(
    rules: readonly ExecutableRule[],
    private readonly operators: readonly RuleOperator[] = [],
  ) {
    this.groups = byPriority(rules);
  }

  async run(transaction: Record<string, unknown>, facts: Record<string, unknown> = {}): Promise<RuleEngineResult> {
    const engines = this.idle.pop() ?? this.groups.map((group) => this.build(group));
    const result = await this.runOn(engines, transaction, facts);
    // Only an engine whose run ended normally is lent again.
    if (this.idle.length < MAX_IDLE_ENGINE_SETS) this.idle.push(engines);
    return result;
  }

  private build(group: ExecutableRule[]): Engine {
    const engine = conditionEngine();
    for (const operator of this.operators) engine.addOperator(operator.name, operator.evaluate);
    group.forEach((rule, index) =>
      engine.addRule({
        name: String(index),
        conditions: rule.conditions as unknown as TopLevelCondition,
        event: { type: 'rule' },
      }),
    );
    return engine;
  }

  private async runOn(
    engines: Engine[],
    transaction: Record<string, unknown>,
    facts: Record<string, unknown>,
  ): Promise<RuleEngineResult> {
    const result = new Map<string, unknown>();
    const outcomes: RuleOutcome[] = [];
    for (const [position, group] of this.groups.entries()) {
      const { results } = await engines[position]!.run({
        ...Object.fromEntries(result),
        ...facts,
        [REQUEST_FACT]: { transaction },
      });
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
}

/** Concurrent runs of one set beyond this build engines that are not kept. */
const MAX_IDLE_ENGINE_SETS = 64;

/** Runs rules once (a dry run, a test): compiles them for this run only. */
export function runRules(
  rules: readonly ExecutableRule[],
  transaction: Record<string, unknown>,
  facts: Record<string, unknown> = {},
  operators: readonly RuleOperator[] = [],
): Promise<RuleEngineResult> {
  return new CompiledRules(rules, operators).run(transaction, facts);
}

/** Rules grouped by priority, highest first; within a group, in the set's order. */
function byPriority(rules: readonly ExecutableRule[]): ExecutableRule[][] {
  const groups = new Map<number, ExecutableRule[]>();
  for (const rule of rules) groups.set(rule.priority, [...(groups.get(rule.priority) ?? []), rule]);
  return [...groups.entries()].sort(([a], [b]) => b - a).map(([, group]) => group);
}
