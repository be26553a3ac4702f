import { Engine, type TopLevelCondition } from 'json-rules-engine';
import {
  CONDITION_ENGINE_OPTIONS,
  conditionPathProblems,
  type RuleConditions,
} from '../platform/conditions/conditions.js';
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
    this.engine = new Engine([], CONDITION_ENGINE_OPTIONS);
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
      await compiled.match({ event: {}, payload: {}, user: {} });
    } catch (error) {
      throw conditionsError('evaluable', `conditions cannot be evaluated: ${(error as Error).message}`);
    }
    return compiled;
  }

  async match(facts: ReactorFacts): Promise<boolean> {
    const { events } = await this.engine.run({ event: facts.event, payload: facts.payload, user: facts.user ?? {} });
    return events.length > 0;
  }
}

/** Conditions that cannot serve are a fault of the body's `conditions` (docs/api-conventions.md#errors: 400 ValidationError). */
function conditionsError(rule: string, message: string): ValidationError {
  return fieldError('conditions', undefined, rule, message);
}
