import type { AppContext } from '../../shared/context.js';
import { ruleSetView, updateRuleSet } from '../../shared/rules/rule-set-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  RULE_CHECK,
  RULE_SET_EXAMPLE,
  RULE_SETS_PATH,
  RuleSetIdParams,
  RuleSetResource,
  tags,
  UpdateRuleSetBody,
} from './schema.js';

export function registerUpdateRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: `${RULE_SETS_PATH}/:id`,
    operationId: 'updateRuleSet',
    description: `Changes the fields given. \`ruleDefinitions\`, when given, replace every rule of the set at once. ${RULE_CHECK}`,
    examples: { request: { isActive: false }, response: { ...RULE_SET_EXAMPLE, isActive: false } },
    summary: 'Change a rule set; ruleDefinitions, when given, replace its rules',
    tags,
    access,
    params: RuleSetIdParams,
    body: UpdateRuleSetBody,
    responses: { 200: { description: 'the changed rule set', data: RuleSetResource } },
    errors: [404],
    handler: async ({ params, body }, c) =>
      ruleSetView(await updateRuleSet(context, entityManager(c), changedBy(c), params.id, body)),
  });
}
