import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { ruleSetView } from '../../shared/rules/rule-set-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RULE_SET_EXAMPLE, RULE_SET_LIST, RULE_SETS_PATH, RuleSetResource, tags } from './schema.js';

export function registerListRuleSets(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: RULE_SETS_PATH,
    operationId: 'listRuleSets',
    description:
      'The rule sets, each with its rules. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.',
    examples: { response: [RULE_SET_EXAMPLE] },
    summary: 'List rule sets, each with its rules',
    tags,
    access,
    query: listQuery(RULE_SET_LIST),
    responses: { 200: { description: 'a page of rule sets', data: Type.Array(RuleSetResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, RuleSet, RULE_SET_LIST, query, ruleSetView),
  });
}
