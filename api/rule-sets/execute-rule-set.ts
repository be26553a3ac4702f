import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ExecuteBody, RuleSetRunResource, tags } from './schema.js';

export function registerExecuteRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/transactions-rule-engine/execute',
    summary: 'Run a rule set on a transaction without storing anything',
    tags,
    access,
    body: ExecuteBody,
    responses: {
      200: { description: 'the rule engine result (docs/receipts.md#running-a-rule-set)', data: RuleSetRunResource },
    },
    errors: [404, 422],
    handler: ({ body: { transaction, ruleSetId } }, c) =>
      context.ruleEngine.execute(c.var.tenant.id, transaction, ruleSetId),
  });
}
