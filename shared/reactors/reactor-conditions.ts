import { Engine, type TopLevelCondition } from 'json-rules-engine';
import { jsonPathProblem, selectJsonPath } from '../json-path/json-path.js';
import { BadRequestError } from '../errors/app-errors.js';
import type { RuleConditions } from './reaction.js';
import { conditionStrings } from './reactor-reads.js';

/** The facts a reactor's conditions may read (decisions.md §6). */
export interface ReactorFacts {
  event: Record<string, unknown>;
  payload: Record<string, unknown>;
  user: Record<string, unknown> | null;
}

/**
 * A reactor's conditions compiled into a json-rules-engine Engine once and reused for every event.
 * Condition `path`s are JSONPath run with script evaluation disabled: the engine's default resolver
 * uses jsonpath-plus's `safe` eval, which has carried remote-code-execution bugs (STACK.md).
 */
export class ReactorConditions {
  private readonly engine: Engine;

  constructor(conditions: RuleConditions) {
    this.engine = new Engine([], {
      allowUndefinedFacts: true,
      // json-rules-engine compares what the resolver returns: one value, or the array of several.
      pathResolver: (value: object, path: string) => {
        const found = selectJsonPath(path, value);
        return found.length > 1 ? found : found[0];
      },
    });
    try {
      this.engine.addRule({ conditions: conditions as unknown as TopLevelCondition, event: { type: 'reactor-matched' } });
    } catch (error) {
      throw new BadRequestError(`conditions are not valid json-rules-engine conditions: ${(error as Error).message}`);
    }
  }

  /** Builds and dry-runs conditions, so an unknown operator is a 400 when saved, not a failing event later. */
  static async check(conditions: RuleConditions): Promise<ReactorConditions> {
    const problems = conditionStrings(conditions, 'path').map(jsonPathProblem).filter((problem) => problem !== undefined);
    if (problems.length) throw new BadRequestError(`conditions: ${problems.join('; ')}`);
    const compiled = new ReactorConditions(conditions);
    try {
      await compiled.match({ event: {}, payload: {}, user: {} });
    } catch (error) {
      throw new BadRequestError(`conditions cannot be evaluated: ${(error as Error).message}`);
    }
    return compiled;
  }

  async match(facts: ReactorFacts): Promise<boolean> {
    const { events } = await this.engine.run({ event: facts.event, payload: facts.payload, user: facts.user ?? {} });
    return events.length > 0;
  }
}
