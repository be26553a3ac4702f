import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { BasketConfiguration, CustomRuleProperties, ResultParams, RuleType } from './rule-definition.js';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

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
    ...tenantOwned(),
    name: p.string().length(256).nullable(),
    isActive: p.boolean(),
    scope: p.json<RuleSetScope>().nullable(),
    rules: p.json<StoredRule[]>(),
    ...timestampProperties(),
  },
});

export type RuleSet = InferEntity<typeof RuleSet>;

export const MAX_RULES_PER_SET = 200;
