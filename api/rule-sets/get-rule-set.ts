import type { AppContext } from '../../shared/context.js';
import { findRuleSet, ruleSetView } from '../../shared/rules/rule-set-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RULE_SET_EXAMPLE, RULE_SETS_PATH, RuleSetIdParams, RuleSetResource, tags } from './schema.js';

export function registerGetRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: `${RULE_SETS_PATH}/:id`,
    operationId: 'getRuleSet',
    description: 'One rule set with its rules, in the order they run.',
    examples: { response: RULE_SET_EXAMPLE },
    summary: 'Read a rule set',
    tags,
    access,
    params: RuleSetIdParams,
    responses: { 200: { description: 'the rule set', data: RuleSetResource } },
    errors: [404],
    handler: async ({ params }, c) => ruleSetView(await findRuleSet(entityManager(c), c.var.tenant.id, params.id)),
  });
}
