import type { AppContext } from '../../shared/context.js';
import { ruleSetView, updateRuleSet } from '../../shared/rules/rule-set-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RULE_SETS_PATH, RuleSetIdParams, RuleSetResource, tags, UpdateRuleSetBody } from './schema.js';

export function registerUpdateRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: `${RULE_SETS_PATH}/:id`,
    operationId: 'updateRuleSet',
    description: 'Changes the fields given. `ruleDefinitions`, when given, replace every rule of the set at once.',
    examples: {
      request: { isActive: false },
      response: {
        id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
        name: 'Every shop',
        isActive: false,
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
