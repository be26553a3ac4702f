import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { addRule, deleteRule, findRule, findRuleSet, updateRule } from '../../shared/rules/rule-set-service.js';
import { entityManager, type App } from '../app-env.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecord, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { access, RULE_SETS_PATH, tags } from './paths.js';
import { RuleDefinitionBody, RuleIdParameter, RuleResource, RuleSetIdParameter, UpdateRuleBody } from './schema.js';

/** decisions.md §9: rules are added and changed under `…/rule-sets/{id}/rules[/{ruleId}]`. */
export function registerRuleRoutes(app: App, context: AppContext): void {
  const rulesPath = `${RULE_SETS_PATH}/:id/rules`;
  const parameters = [RuleSetIdParameter, RuleIdParameter];
  app.get(
    rulesPath,
    describe({ summary: "A rule set's rules, in order", tags, access, parameters: [RuleSetIdParameter], responses: { 200: { description: 'the rules', data: Type.Array(RuleResource) } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: (await findRuleSet(entityManager(c), c.var.tenant.id, c.req.param('id'))).rules }),
  );
  app.post(
    rulesPath,
    describe({ summary: 'Add a rule to a rule set', tags, access, parameters: [RuleSetIdParameter], body: RuleDefinitionBody, responses: { 201: { description: 'the stored rule', data: RuleResource } }, errors: [404, 422] }),
    authorize(context, access),
    idempotent(
      context,
      createsRecord(async (c, id) => {
        const set = await entityManager(c).findOne(RuleSet, { tenant: c.var.tenant.id, id: c.req.param('id') });
        const rule = set?.rules.find((candidate) => candidate.id === id);
        return rule ? c.json({ status: 'success', data: rule }, 201) : undefined;
      }),
    ),
    jsonBody(RuleDefinitionBody),
    async (c) => {
      const rule = await addRule(entityManager(c), context.ruleEngine, c.var.tenant.id, c.req.param('id'), c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: rule }, 201);
    },
  );
  app.get(
    `${rulesPath}/:ruleId`,
    describe({ summary: 'Read a rule', tags, access, parameters, responses: { 200: { description: 'the rule', data: RuleResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: findRule(await findRuleSet(entityManager(c), c.var.tenant.id, c.req.param('id')), c.req.param('ruleId')) }),
  );
  app.patch(
    `${rulesPath}/:ruleId`,
    describe({ summary: 'Change a rule; the result is checked as a new rule would be', tags, access, parameters, body: UpdateRuleBody, responses: { 200: { description: 'the changed rule', data: RuleResource } }, errors: [404] }),
    authorize(context, access),
    jsonBody(UpdateRuleBody),
    async (c) => {
      const rule = await updateRule(entityManager(c), context.ruleEngine, c.var.tenant.id, c.req.param('id'), c.req.param('ruleId'), c.req.valid('json'));
      return c.json({ status: 'success', data: rule });
    },
  );
  app.delete(
    `${rulesPath}/:ruleId`,
    describe({ summary: 'Remove a rule from its set', tags, access, parameters, responses: { 200: { description: 'deleted', data: Type.Object({ affected: Type.Integer() }) } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      await deleteRule(entityManager(c), context.ruleEngine, c.var.tenant.id, c.req.param('id'), c.req.param('ruleId'));
      return c.json({ status: 'success', data: { affected: 1 } });
    },
  );
}
