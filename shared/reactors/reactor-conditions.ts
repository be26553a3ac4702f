import type { Engine, TopLevelCondition } from 'json-rules-engine';
import { conditionEngine, conditionPathProblems, type RuleConditions } from '../platform/conditions/conditions.js';
import { fieldError, type ValidationError } from '../platform/errors/app-errors.js';

/** The facts a reactor's conditions may read (docs/events.md#reactors). */
export interface ReactorFacts {
  event: Record<string, unknown>;
  payload: Record<string, unknown>;
  user: Record<string, unknown> | null;
}

/** A reactor's conditions compiled into a json-rules-engine Engine once and reused for every event. */
export class ReactorConditions {
  private readonly engine: Engine;

  constructor(conditions: RuleConditions) {
    this.engine = conditionEngine();
    try {
      this.engine.addRule({
        conditions: conditions as unknown as TopLevelCondition,
        event: { type: 'reactor-matched' },
      });
    } catch (error) {
      throw conditionsError(
        'isConditions',
        `conditions are not valid json-rules-engine conditions: ${(error as Error).message}`,
      );
    }
  }

  /** Builds and dry-runs conditions, so an unknown operator is a 400 when saved, not a failing event later. */
  static async check(conditions: RuleConditions): Promise<ReactorConditions> {
    const problems = conditionPathProblems(conditions);
    if (problems.length) throw conditionsError('jsonPath', `conditions: ${problems.join('; ')}`);
    const compiled = new ReactorConditions(conditions);
    try {
      await compiled.evaluate({ event: {}, payload: {}, user: {} });
    } catch (error) {
      throw conditionsError('evaluable', `conditions cannot be evaluated: ${(error as Error).message}`);
    }
    return compiled;
  }

  /**
   * Whether the event meets the conditions. Conditions that cannot be evaluated on its data do not
   * hold, as a path that finds no number is worth no points (points-expression.ts). They passed
   * their dry run when saved, so what fails now is this event's payload, the reporter's, already
   * answered 201: an object searched for in a text with `in`, a `someValue` decorator whose `value`
   * fact is no list, behind a condition the dry run's empty facts stopped at. Throwing would answer
   * POST /v1/events/test_reaction 500, and fail the worker's registration of the event on every retry.
   */
  async match(facts: ReactorFacts): Promise<boolean> {
    return this.evaluate(facts).catch(() => false);
  }

  private async evaluate(facts: ReactorFacts): Promise<boolean> {
    const { events } = await this.engine.run({ event: facts.event, payload: facts.payload, user: facts.user ?? {} });
    return events.length > 0;
  }
}

/** Conditions that cannot serve are a fault of the body's `conditions` (docs/api-conventions.md#errors: 400 ValidationError). */
function conditionsError(rule: string, message: string): ValidationError {
  return fieldError('conditions', undefined, rule, message);
}
