import type { AppContext } from '../../shared/context.js';
import { findRuleSet, ruleSetView } from '../../shared/rules/rule-set-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RULE_SETS_PATH, RuleSetIdParams, RuleSetResource, tags } from './schema.js';

export function registerGetRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: `${RULE_SETS_PATH}/:id`,
    operationId: 'getRuleSet',
    description: 'One rule set with its rules, in the order they run.',
    examples: {
      response: {
        id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
        name: 'Every shop',
        isActive: true,
        scope: null,
        rules: [
          {
            id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
            type: 'CUSTOM',
            name: 'Total of at least 20',
            priority: 10,
            ruleProperties: {
              conditions: {
                all: [{ fact: 'request', path: '$.transaction.total', operator: 'greaterThanInclusive', value: 20 }],
              },
              event: { type: 'large-basket' },
            },
            resultParams: { success: [{ key: 'bonusPoints', value: 50 }], failure: [] },
            configuration: null,
            createdAt: '2026-01-10T08:00:00.000Z',
            updatedAt: '2026-01-10T08:00:00.000Z',
          },
        ],
        createdAt: '2026-01-10T08:00:00.000Z',
        updatedAt: '2026-01-10T08:00:00.000Z',
      },
    },
    summary: 'Read a rule set',
    tags,
    access,
    params: RuleSetIdParams,
    responses: { 200: { description: 'the rule set', data: RuleSetResource } },
    errors: [404],
    handler: async ({ params }, c) => ruleSetView(await findRuleSet(entityManager(c), c.var.tenant.id, params.id)),
  });
}
