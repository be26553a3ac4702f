import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { ruleSetView } from '../../shared/rules/rule-set-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RULE_SET_LIST, RULE_SETS_PATH, RuleSetResource, tags } from './schema.js';

export function registerListRuleSets(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: RULE_SETS_PATH,
    operationId: 'listRuleSets',
    description:
      'The rule sets, each with its rules. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.',
    examples: {
      response: [
        {
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
      ],
    },
    summary: 'List rule sets, each with its rules',
    tags,
    access,
    query: listQuery(RULE_SET_LIST),
    responses: { 200: { description: 'a page of rule sets', data: Type.Array(RuleSetResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, RuleSet, RULE_SET_LIST, query, ruleSetView),
  });
}
