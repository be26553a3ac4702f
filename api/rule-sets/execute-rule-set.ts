import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { PRODUCT_EXAMPLE } from '../products/schema.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ExecuteBody, RULE_EXAMPLE, RULE_SET_EXAMPLE, RuleSetRunResource, tags } from './schema.js';

export function registerExecuteRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/transactions-rule-engine/execute',
    operationId: 'executeRuleSet',
    description:
      "Runs a rule set on the transaction you send and answers the result and each rule's outcome, storing nothing: for trying rules before a receipt meets them. Without `ruleSetId`, the active set that applies to the transaction runs; none applying is 404. A set the engine cannot run on the transaction (a rule stored before a check refused it) is 422 RuleEngineError.",
    examples: {
      request: {
        transaction: {
          total: 42.5,
          subtotal: 35.42,
          merchantName: 'Acme Coffee',
          lineItems: [
            {
              quantity: 2,
              description: 'Espresso beans 1 kg',
              productId: PRODUCT_EXAMPLE.id,
              totalPrice: 37.8,
            },
          ],
        },
      },
      response: {
        ruleSetId: RULE_SET_EXAMPLE.id,
        result: { bonusPoints: 50 },
        rules: [{ id: RULE_EXAMPLE.id, name: RULE_EXAMPLE.name, priority: RULE_EXAMPLE.priority, outcome: 'success' }],
        stopped: false,
      },
    },
    summary: 'Run a rule set on a transaction without storing anything',
    tags,
    access,
    body: ExecuteBody,
    responses: {
      200: {
        description: 'the rule engine result: what the rules added and how each rule ended',
        data: RuleSetRunResource,
      },
    },
    errors: [404, 422],
    handler: ({ body: { transaction, ruleSetId } }, c) =>
      context.ruleEngine.execute(c.var.tenant.id, transaction, ruleSetId),
  });
}
