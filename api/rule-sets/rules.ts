import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { pageInMemory } from '../../shared/platform/lists/page-in-memory.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { addRule, deleteRule, findRule, findRuleSet, updateRule } from '../../shared/rules/rule-set-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { LIST_PAGE, listQuery, pageAnswer } from '../lists/list-route.js';
import { createsRecord } from '../middleware/idempotency.js';
import { Deleted, DELETED_ONE, success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import {
  access,
  RULE_CHECK,
  RULE_DEFINITION_EXAMPLE,
  RULE_EXAMPLE,
  RULE_LIST,
  RULE_PROPERTIES_EXAMPLE,
  RULE_SETS_PATH,
  RuleDefinitionBody,
  RuleParams,
  RuleResource,
  RuleSetIdParams,
  tags,
  UpdateRuleBody,
} from './schema.js';

/** docs/receipts.md#rule-sets: rules are added and changed under `…/rule-sets/{id}/rules[/{ruleId}]`, a small resource kept in one file. */
export function registerRuleRoutes(app: App, context: AppContext): void {
  const rulesPath = `${RULE_SETS_PATH}/:id/rules`;
  defineRoute(app, context, {
    method: 'get',
    path: rulesPath,
    operationId: 'listRuleSetRules',
    description: `The rules of one set, by default in the order they run (higher priority first, equal priorities in the set's order). ${LIST_PAGE}`,
    examples: { response: [RULE_EXAMPLE] },
    summary: "A rule set's rules, in the order they run",
    tags,
    access,
    params: RuleSetIdParams,
    query: listQuery(RULE_LIST),
    responses: { 200: { description: 'a page of rules', data: Type.Array(RuleResource) } },
    errors: [400, 404],
    handler: async ({ params, query }, c) => {
      const set = await findRuleSet(entityManager(c), c.var.tenant.id, params.id);
      return pageAnswer(RULE_LIST, query, pageInMemory(set.rules, query));
    },
  });
  defineRoute(app, context, {
    method: 'post',
    path: rulesPath,
    operationId: 'createRuleSetRule',
    description: `Adds a rule to a set. ${RULE_CHECK}`,
    examples: { request: RULE_DEFINITION_EXAMPLE, response: RULE_EXAMPLE },
    summary: 'Add a rule to a rule set',
    tags,
    access,
    params: RuleSetIdParams,
    idempotency: createsRecord(async (c, id) => {
      const set = await entityManager(c).findOne(RuleSet, { tenant: c.var.tenant.id, id: c.req.param('id') });
      const rule = set?.rules.find((candidate) => candidate.id === id);
      return rule ? success(c, rule, 201) : undefined;
    }),
    body: RuleDefinitionBody,
    responses: { 201: { description: 'the stored rule', data: RuleResource } },
    errors: [404, 422],
    handler: ({ params, body }, c) =>
      addRule(context, entityManager(c), changedBy(c), params.id, body, c.var.reservedId),
  });
  defineRoute(app, context, {
    method: 'get',
    path: `${rulesPath}/:ruleId`,
    operationId: 'getRuleSetRule',
    description: 'One rule of a set, as it runs: its conditions, priority and the keys it adds to the result.',
    examples: { response: RULE_EXAMPLE },
    summary: 'Read a rule',
    tags,
    access,
    params: RuleParams,
    responses: { 200: { description: 'the rule', data: RuleResource } },
    errors: [404],
    handler: async ({ params }, c) =>
      findRule(await findRuleSet(entityManager(c), c.var.tenant.id, params.id), params.ruleId),
  });
  defineRoute(app, context, {
    method: 'patch',
    path: `${rulesPath}/:ruleId`,
    operationId: 'updateRuleSetRule',
    description: `Changes the fields given; the rule that results is checked whole, as a new rule would be. ${RULE_CHECK}`,
    examples: {
      // A CUSTOM rule's priority is also in its ruleProperties: a change of one is a change of both.
      request: { priority: 20, ruleProperties: { ...RULE_PROPERTIES_EXAMPLE, priority: 20 } },
      response: { ...RULE_EXAMPLE, priority: 20, ruleProperties: { ...RULE_PROPERTIES_EXAMPLE, priority: 20 } },
    },
    summary: 'Change a rule; the result is checked as a new rule would be',
    tags,
    access,
    params: RuleParams,
    body: UpdateRuleBody,
    responses: { 200: { description: 'the changed rule', data: RuleResource } },
    errors: [404],
    handler: ({ params, body }, c) =>
      updateRule(context, entityManager(c), changedBy(c), params.id, params.ruleId, body),
  });
  defineRoute(app, context, {
    method: 'delete',
    path: `${rulesPath}/:ruleId`,
    operationId: 'deleteRuleSetRule',
    description: 'Removes one rule from its set.',
    examples: { response: { affected: 1 } },
    summary: 'Remove a rule from its set',
    tags,
    access,
    params: RuleParams,
    responses: { 200: { description: 'deleted', data: Deleted } },
    errors: [404],
    handler: async ({ params }, c) => {
      await deleteRule(context, entityManager(c), changedBy(c), params.id, params.ruleId);
      return DELETED_ONE;
    },
  });
}
