import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { BadRequestError } from '../platform/errors/app-errors.js';
import { identifierKey, Product, ProductIdentifier } from '../products/product.entity.js';
import { checkRuleDefinition, type CheckedRule, type ProductLookup } from './check-rule-definition.js';
import type { RuleDefinition } from './rule-definition.js';
import { MAX_RULES_PER_SET, type StoredRule } from './rule-set.entity.js';
import { venueMatchesOperator } from './venue-matches.js';

/** The operators a rule may use; checking a rule needs only their names, so no venue is loaded. */
const RULE_OPERATORS = [venueMatchesOperator(new Map())];

/**
 * Rule definitions checked against the tenant's products and the operators there are, and stored
 * with an id each (docs/receipts.md#rule-sets): `field` names the list in the errors.
 */
export async function storedRules(
  em: EntityManager,
  tenantId: string,
  definitions: RuleDefinition[],
  field: string,
): Promise<StoredRule[]> {
  if (definitions.length > MAX_RULES_PER_SET)
    throw new BadRequestError(`A rule set holds at most ${MAX_RULES_PER_SET} rules`);
  const rules: StoredRule[] = [];
  for (const [index, definition] of definitions.entries())
    rules.push(storedRule(definition, await checkedRule(em, tenantId, definition, `${field}[${index}]`), randomUUID()));
  return rules;
}

/** A rule definition checked against the tenant's products and the operators there are (check-rule-definition.ts). */
export function checkedRule(
  em: EntityManager,
  tenantId: string,
  definition: RuleDefinition,
  field: string,
): Promise<CheckedRule> {
  return checkRuleDefinition(definition, field, productLookup(em, tenantId), RULE_OPERATORS);
}

/** One rule as stored: what the admin wrote, the properties its check built, and its times. */
export function storedRule(
  definition: RuleDefinition,
  { ruleProperties, warnings }: CheckedRule,
  id: string,
  createdAt?: string,
): StoredRule {
  const now = new Date().toISOString();
  return {
    id,
    name: definition.name,
    type: definition.type,
    priority: definition.priority,
    ruleProperties,
    configuration: definition.type === 'BASKET' ? definition.configuration! : null,
    resultParams: definition.resultParams,
    ...(warnings ? { warnings } : {}),
    createdAt: createdAt ?? now,
    updatedAt: now,
  };
}

/** A product by its id, else by any of its identifiers (matched as line items are: identifierKey). */
function productLookup(em: EntityManager, tenantId: string): ProductLookup {
  return async (productId) => {
    const byId = isUuid(productId)
      ? await em.findOne(Product, { tenant: tenantId, id: productId }, { fields: ['unitPrice'] })
      : null;
    const identified =
      byId ??
      (
        await em.findOne(
          ProductIdentifier,
          { tenant: tenantId, key: identifierKey(productId) },
          { populate: ['product'], fields: ['product.unitPrice'] },
        )
      )?.product;
    return identified ? { id: identified.id, unitPrice: identified.unitPrice ?? null } : undefined;
  };
}
