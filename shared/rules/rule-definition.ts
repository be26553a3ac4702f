import type { RuleConditions } from '../platform/conditions/conditions.js';

/** docs/receipts.md#rule-definitions: what an admin writes. */
export interface KeyValuePair {
  key: string;
  value: unknown;
}

export interface ResultParams {
  success: KeyValuePair[];
  failure: KeyValuePair[];
}

export interface CustomRuleProperties {
  conditions: RuleConditions;
  event: { type: string };
  priority?: number;
}

export interface BasketConfiguration {
  productId: string;
  isUnitPriceCheckNeeded: boolean;
  overridingUnitPriceToCheckAgainst?: number;
}

export const RULE_TYPES = ['CUSTOM', 'BASKET'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

export interface RuleDefinition {
  type: RuleType;
  name: string;
  priority: number;
  ruleProperties?: CustomRuleProperties;
  configuration?: BasketConfiguration | null;
  resultParams: ResultParams;
}

/** A rule ready to run: CUSTOM conditions as written, BASKET conditions generated. */
export interface ExecutableRule {
  id: string;
  name: string;
  type: RuleType;
  priority: number;
  conditions: RuleConditions;
  resultParams: ResultParams;
}

/** docs/receipts.md#running-a-rule-set: result keys the engine and the reviewer act on. */
export const STOP_KEY = 'stopRuleEngine';
export const VERDICT_KEY = 'verdict';
export const REASON_KEY = 'reason';
/** The facts the engine provides; result keys may not take their names. */
export const REQUEST_FACT = 'request';
export const CATALOGUE_FACT = 'catalogue';
