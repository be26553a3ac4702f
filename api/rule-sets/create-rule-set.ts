import type { Context } from 'hono';
import type { AppContext } from '../../shared/context.js';
import { RuleSet } from '../../shared/rules/rule-set.entity.js';
import { createRuleSet, ruleSetTenantView, ruleSetView } from '../../shared/rules/rule-set-service.js';
import { changedBy, entityManager, type App, type AppEnv } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { EVENT_TYPE_EXAMPLE } from '../event-types/schema.js';
import { defineRoute } from '../routes/define-route.js';
import { TENANT_EXAMPLE } from '../tenant/schema.js';
import {
  access,
  CreatedRuleSet,
  CreateRuleSetBody,
  RULE_CHECK,
  RULE_DEFINITION_EXAMPLE,
  RULE_SET_EXAMPLE,
  RULE_SETS_PATH,
  tags,
} from './schema.js';

export function registerCreateRuleSet(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: RULE_SETS_PATH,
    operationId: 'createRuleSet',
    description: `Creates a rule set, with its rules when \`ruleDefinitions\` is given. The active set whose \`scope\` matches a transaction best decides its receipts. ${RULE_CHECK}`,
    examples: {
      request: { name: 'Every shop', isActive: true, scope: null, ruleDefinitions: [RULE_DEFINITION_EXAMPLE] },
      response: {
        ...RULE_SET_EXAMPLE,
        tenant: {
          id: TENANT_EXAMPLE.id,
          name: TENANT_EXAMPLE.name,
          slug: TENANT_EXAMPLE.slug,
          authentication: TENANT_EXAMPLE.authentication,
          key: TENANT_EXAMPLE.keyPrefix,
          eventSecrets: { [EVENT_TYPE_EXAMPLE.name]: null },
          configuration: TENANT_EXAMPLE.configuration,
        },
      },
    },
    summary: 'Create a rule set',
    tags,
    access,
    idempotency: createsRecord(async (c, id) => {
      const set = await entityManager(c).findOne(RuleSet, { tenant: c.var.tenant.id, id });
      return set ? success(c, await createdRuleSet(c, set), 201) : undefined;
    }),
    body: CreateRuleSetBody,
    responses: { 201: { description: 'created, with its stored rules and the tenant', data: CreatedRuleSet } },
    errors: [422],
    handler: async ({ body }, c) =>
      createdRuleSet(c, await createRuleSet(context, entityManager(c), changedBy(c), body, c.var.reservedId)),
  });
}

/** A new rule set's answer: the set and its tenant, as the document shows them (docs/receipts.md#rule-sets). */
async function createdRuleSet(c: Context<AppEnv>, set: RuleSet) {
  return { ...ruleSetView(set), tenant: await ruleSetTenantView(entityManager(c), c.var.tenant) };
}
