import type { Context } from 'hono';
import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { createRuleSet, deleteRuleSet, findRuleSet, ruleSetTenantView, ruleSetView, updateRuleSet } from '../../shared/rules/rule-set-service.js';
import { entityManager, type App, type AppEnv } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecord, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { access, RULE_SETS_PATH, tags } from './paths.js';
import { registerRuleRoutes } from './rules.js';
import { CreatedRuleSet, CreateRuleSetBody, ExecuteBody, RuleSetIdParameter, RuleSetResource, RuleSetRunResource, UpdateRuleSetBody } from './schema.js';

const RULE_SET_LIST: ListSpec = {
  resource: 'rule-set',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

/** The transactions rule engine (receipts-interface.md; decisions.md §9): rule sets, their rules, and dry runs. */
export function registerRuleSetRoutes(app: App, context: AppContext): void {
  app.post(
    RULE_SETS_PATH,
    describe({ summary: 'Create a rule set', tags, access, body: CreateRuleSetBody, responses: { 201: { description: 'created, with its stored rules and the tenant', data: CreatedRuleSet } }, errors: [422] }),
    authorize(context, access),
    idempotent(
      context,
      createsRecord(async (c, id) => {
        const set = await entityManager(c).findOne(RuleSet, { tenant: c.var.tenant.id, id });
        return set ? createdRuleSet(c, set) : undefined;
      }),
    ),
    jsonBody(CreateRuleSetBody),
    async (c) => {
      const set = await createRuleSet(entityManager(c), context.ruleEngine, c.var.tenant.id, c.req.valid('json'), c.var.reservedId);
      return createdRuleSet(c, set);
    },
  );
  app.get(
    RULE_SETS_PATH,
    describe({ summary: 'List rule sets, each with its rules', tags, access, parameters: listParameters(RULE_SET_LIST), responses: { 200: { description: 'a page of rule sets', data: Type.Array(RuleSetResource) } }, errors: [400] }),
    authorize(context, access),
    (c) => listResponse(c, RuleSet, RULE_SET_LIST, ruleSetView),
  );
  app.get(
    `${RULE_SETS_PATH}/:id`,
    describe({ summary: 'Read a rule set', tags, access, parameters: [RuleSetIdParameter], responses: { 200: { description: 'the rule set', data: RuleSetResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: ruleSetView(await findRuleSet(entityManager(c), c.var.tenant.id, c.req.param('id'))) }),
  );
  app.patch(
    `${RULE_SETS_PATH}/:id`,
    describe({ summary: 'Change a rule set; ruleDefinitions, when given, replace its rules', tags, access, parameters: [RuleSetIdParameter], body: UpdateRuleSetBody, responses: { 200: { description: 'the changed rule set', data: RuleSetResource } }, errors: [404] }),
    authorize(context, access),
    jsonBody(UpdateRuleSetBody),
    async (c) => {
      const set = await updateRuleSet(entityManager(c), context.ruleEngine, c.var.tenant.id, c.req.param('id'), c.req.valid('json'));
      return c.json({ status: 'success', data: ruleSetView(set) });
    },
  );
  app.delete(
    `${RULE_SETS_PATH}/:id`,
    describe({ summary: 'Delete a rule set and its rules', tags, access, parameters: [RuleSetIdParameter], responses: { 200: { description: 'deleted', data: Type.Object({ affected: Type.Integer() }) } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      await deleteRuleSet(entityManager(c), context.ruleEngine, c.var.tenant.id, c.req.param('id'));
      return c.json({ status: 'success', data: { affected: 1 } });
    },
  );
  registerRuleRoutes(app, context);
  app.post(
    '/v1/transactions-rule-engine/execute',
    describe({
      summary: 'Run a rule set on a transaction without storing anything',
      tags,
      access,
      body: ExecuteBody,
      responses: { 200: { description: 'the rule engine result (decisions.md §9)', data: RuleSetRunResource } },
      errors: [404, 422],
    }),
    authorize(context, access),
    jsonBody(ExecuteBody),
    async (c) => {
      const { transaction, ruleSetId } = c.req.valid('json');
      return c.json({ status: 'success', data: await context.ruleEngine.execute(c.var.tenant.id, transaction, ruleSetId) });
    },
  );
}

/** A new rule set's answer: the set and its tenant, as the document shows them (decisions.md §9's deviation). */
async function createdRuleSet(c: Context<AppEnv>, set: RuleSet) {
  return c.json({ status: 'success', data: { ...ruleSetView(set), tenant: await ruleSetTenantView(entityManager(c), c.var.tenant) } }, 201);
}
