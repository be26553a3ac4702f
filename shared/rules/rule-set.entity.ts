import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import type { BasketConfiguration, CustomRuleProperties, ResultParams, RuleType } from './rule-definition.js';

/** docs/receipts.md#choosing-a-rule-set: which transactions a set is for; an absent field matches any. */
export interface RuleSetScope {
  formatSlug?: string;
  merchantName?: string;
  campaignId?: string;
}

/** A rule as stored (docs/receipts.md#rule-definitions): a BASKET rule's `ruleProperties` are generated. */
export interface StoredRule {
  id: string;
  name: string;
  type: RuleType;
  priority: number;
  ruleProperties: CustomRuleProperties;
  configuration: BasketConfiguration | null;
  resultParams: ResultParams;
  /** What the admin should know of the rule as it was saved (check-rule-definition.ts). */
  warnings?: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * A tenant's rule set. Its rules live in the set's row, in order: a run reads the whole set at
 * once, and a change to one rule is a change to the set, made under the row's lock.
 */
export const RuleSet = defineEntity({
  name: 'RuleSet',
  tableName: 'rule_set',
  indexes: [{ properties: ['tenant', 'isActive'] }],
  properties: {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    name: p.string().length(256).nullable(),
    isActive: p.boolean(),
    scope: p.json<RuleSetScope>().nullable(),
    rules: p.json<StoredRule[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type RuleSet = InferEntity<typeof RuleSet>;

export const MAX_RULES_PER_SET = 200;
