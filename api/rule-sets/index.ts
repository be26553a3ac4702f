import type { AppContext } from '../../shared/context.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { deleteRuleSet, findRuleSet, ruleSetView, updateRuleSet } from '../../shared/rules/rule-set-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import { registerCreateRuleSet } from './create-rule-set.js';
import { registerExecuteRuleSet } from './execute-rule-set.js';
import { registerRuleRoutes } from './rules.js';
import {
  access,
  RULE_CHECK,
  RULE_SET_EXAMPLE,
  RULE_SET_LIST,
  RULE_SETS_PATH,
  RuleSetIdParams,
  RuleSetResource,
  tags,
  UpdateRuleSetBody,
} from './schema.js';

/** The transactions rule engine (docs/receipts.md#rule-sets): rule sets, their rules, and dry runs. */
export function registerRuleSetRoutes(app: App, context: AppContext): void {
  const ruleSets = collectionRoutes(app, context, {
    path: RULE_SETS_PATH,
    noun: 'rule set',
    entity: RuleSet,
    resource: RuleSetResource,
    view: ruleSetView,
    example: RULE_SET_EXAMPLE,
    params: RuleSetIdParams,
    tags,
    access,
  });
  // Its answer carries the tenant the set belongs to, as the interface document shows it.
  registerCreateRuleSet(app, context);
  ruleSets.list({
    summary: 'List rule sets, each with its rules',
    description: 'The rule sets, each with its rules.',
    spec: RULE_SET_LIST,
  });
  ruleSets.get({ description: 'One rule set with its rules, in the order they run.', find: findRuleSet });
  ruleSets.update({
    summary: 'Change a rule set; ruleDefinitions, when given, replace its rules',
    description: `Changes the fields given. \`ruleDefinitions\`, when given, replace every rule of the set at once. ${RULE_CHECK}`,
    body: UpdateRuleSetBody,
    examples: { request: { isActive: false }, response: { ...RULE_SET_EXAMPLE, isActive: false } },
    update: updateRuleSet,
  });
  ruleSets.delete({
    summary: 'Delete a rule set and its rules',
    description: 'Deletes a rule set and its rules. Receipts already decided keep their reviews.',
    remove: deleteRuleSet,
  });
  registerRuleRoutes(app, context);
  registerExecuteRuleSet(app, context);
}
