import type { TopLevelCondition } from 'json-rules-engine';
import { conditionEngine, conditionPathProblems, type RuleConditions } from '../platform/conditions/conditions.js';
import { BadRequestError } from '../platform/errors/app-errors.js';
import { REVIEW_REASONS, REVIEW_VERDICTS } from './review-enums.js';
import { basketConditions } from './basket-rule.js';
import {
  CATALOGUE_FACT,
  REASON_KEY,
  REQUEST_FACT,
  STOP_KEY,
  VERDICT_KEY,
  type CustomRuleProperties,
  type RuleDefinition,
} from './rule-definition.js';
import type { RuleOperator } from './rule-engine.js';

/** What a BASKET rule needs to know of the product its `productId` names (its id or any identifier) when it is saved. */
export type ProductLookup = (productId: string) => Promise<{ id: string; unitPrice: number | null } | undefined>;

/** A rule as checked: its properties as stored, and what the admin should know of it. */
export interface CheckedRule {
  ruleProperties: CustomRuleProperties;
  /** Present when the rule is kept but may not do what was meant (a productId no product has). */
  warnings?: string[];
}

/**
 * docs/receipts.md#rule-definitions, checked beyond its shape (which the body schema checks):
 * a CUSTOM rule's name equals `ruleProperties.event.type` and its priority `ruleProperties.priority`,
 * and its conditions build and evaluate; a BASKET rule's configuration names a product (with a
 * catalogue price when the unit price is checked against it). A problem is 400 BadRequestError
 * whose message names the rule and the fields. Answers the rule's properties as stored: a BASKET
 * rule's are generated from its configuration, over the id of the product its `productId` names
 * (the product's id or any of its identifiers, as the receipts interface has a tenant name its
 * products); a `productId` no product has is kept as an opaque id matched against line items'
 * `productId`, with a warning.
 */
export async function checkRuleDefinition(
  definition: RuleDefinition,
  label: string,
  products: ProductLookup,
  operators: readonly RuleOperator[],
): Promise<CheckedRule> {
  const refuse = (problem: string): never => {
    throw new BadRequestError(`${label} ("${definition.name}"): ${problem}`);
  };
  checkResultParams(definition, refuse);
  if (definition.type === 'CUSTOM') {
    const properties =
      definition.ruleProperties ?? refuse('a CUSTOM rule needs ruleProperties {conditions, event, priority}');
    if (definition.configuration) refuse('configuration is for BASKET rules; a CUSTOM rule has ruleProperties');
    if (properties.event.type !== definition.name)
      refuse(
        `name "${definition.name}" differs from ruleProperties.event.type "${properties.event.type}"; they must be equal`,
      );
    if (properties.priority !== definition.priority)
      refuse(
        `priority ${definition.priority} differs from ruleProperties.priority ${properties.priority ?? '(missing)'}; they must be equal`,
      );
    await checkConditions(properties.conditions, operators, refuse);
    return { ruleProperties: properties };
  }
  const configuration =
    definition.configuration ?? refuse('a BASKET rule needs configuration {productId, isUnitPriceCheckNeeded}');
  if (definition.ruleProperties)
    refuse('ruleProperties are generated for a BASKET rule from its configuration: leave them out');
  if (configuration.overridingUnitPriceToCheckAgainst !== undefined && !configuration.isUnitPriceCheckNeeded) {
    refuse(
      'configuration.overridingUnitPriceToCheckAgainst is used only with configuration.isUnitPriceCheckNeeded true',
    );
  }
  const product = await products(configuration.productId);
  const needsCataloguePrice =
    configuration.isUnitPriceCheckNeeded && configuration.overridingUnitPriceToCheckAgainst === undefined;
  if (needsCataloguePrice && !product)
    refuse(
      `configuration.isUnitPriceCheckNeeded needs a price: "${configuration.productId}" is no product's id or identifier, so give configuration.overridingUnitPriceToCheckAgainst`,
    );
  if (needsCataloguePrice && product?.unitPrice === null) {
    refuse(
      `configuration.isUnitPriceCheckNeeded needs a price: product "${configuration.productId}" has no unitPrice, so give configuration.overridingUnitPriceToCheckAgainst`,
    );
  }
  return {
    ruleProperties: {
      conditions: basketConditions({ ...configuration, productId: product?.id ?? configuration.productId }),
      event: { type: definition.name },
      priority: definition.priority,
    },
    ...(product
      ? {}
      : {
          warnings: [
            `configuration.productId "${configuration.productId}" is no product's id or identifier in this tenant's catalogue: the rule matches line items whose productId is exactly "${configuration.productId}"`,
          ],
        }),
  };
}

function checkResultParams(definition: RuleDefinition, refuse: (problem: string) => never): void {
  for (const outcome of ['success', 'failure'] as const) {
    for (const [index, { key, value }] of definition.resultParams[outcome].entries()) {
      const field = `resultParams.${outcome}[${index}]`;
      if (key === REQUEST_FACT || key === CATALOGUE_FACT)
        refuse(`${field}.key "${key}" is the name of a fact the engine provides`);
      if (key === STOP_KEY && typeof value !== 'boolean') refuse(`${field}: ${STOP_KEY} takes true or false`);
      if (key === VERDICT_KEY && !(REVIEW_VERDICTS as readonly unknown[]).includes(value))
        refuse(`${field}: verdict takes one of ${REVIEW_VERDICTS.join(', ')}`);
      if (key === REASON_KEY && !(REVIEW_REASONS as readonly unknown[]).includes(value))
        refuse(`${field}: reason takes one of ${REVIEW_REASONS.join(', ')}`);
    }
  }
}

/** The conditions build, their paths can be evaluated, and a dry run meets no unknown operator. */
async function checkConditions(
  conditions: RuleConditions,
  operators: readonly RuleOperator[],
  refuse: (problem: string) => never,
): Promise<void> {
  const problems = conditionPathProblems(conditions);
  if (problems.length) refuse(`ruleProperties.conditions: ${problems.join('; ')}`);
  const engine = conditionEngine();
  for (const operator of operators) engine.addOperator(operator.name, operator.evaluate);
  try {
    engine.addRule({ conditions: conditions as unknown as TopLevelCondition, event: { type: 'rule' } });
  } catch (error) {
    refuse(`ruleProperties.conditions are not json-rules-engine conditions: ${(error as Error).message}`);
  }
  try {
    await engine.run({ [REQUEST_FACT]: { transaction: {} } });
  } catch (error) {
    refuse(`ruleProperties.conditions cannot be evaluated: ${(error as Error).message}`);
  }
}
