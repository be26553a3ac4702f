import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateRuleSet } from './create-rule-set.js';
import { registerDeleteRuleSet } from './delete-rule-set.js';
import { registerExecuteRuleSet } from './execute-rule-set.js';
import { registerGetRuleSet } from './get-rule-set.js';
import { registerListRuleSets } from './list-rule-sets.js';
import { registerRuleRoutes } from './rules.js';
import { registerUpdateRuleSet } from './update-rule-set.js';

/** The transactions rule engine (docs/receipts.md#rule-sets): rule sets, their rules, and dry runs. */
export function registerRuleSetRoutes(app: App, context: AppContext): void {
  registerCreateRuleSet(app, context);
  registerListRuleSets(app, context);
  registerGetRuleSet(app, context);
  registerUpdateRuleSet(app, context);
  registerDeleteRuleSet(app, context);
  registerRuleRoutes(app, context);
  registerExecuteRuleSet(app, context);
}
