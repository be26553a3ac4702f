import type { RuleConditions } from '../platform/conditions/conditions.js';
import { CATALOGUE_FACT, REQUEST_FACT, type BasketConfiguration } from './rule-definition.js';

/**
 * docs/receipts.md#basket-rules: a BASKET rule compiles to conditions over
 * `lineItems[*].productId`, and, when the unit price is checked, over the unit price of the
 * product's line items, compared with `overridingUnitPriceToCheckAgainst` or else the product's
 * catalogue price (the `catalogue` fact, read when the rule runs, so a price change in the
 * catalogue needs no rule change).
 *
 * Each comparison is written the way docs/receipts.md#rule-definitions asks of CUSTOM rules:
 * `contains` and `equal` in an `any` group, since a path selecting one value yields the value and
 * several an array.
 * A basket matches when any one of its line items does.
 */
export function basketConditions(configuration: BasketConfiguration): RuleConditions {
  const { productId } = configuration;
  const hasProduct = eitherMatch('$.transaction.lineItems[*].productId', productId);
  if (!configuration.isUnitPriceCheckNeeded) return { all: [hasProduct] };
  const price = configuration.overridingUnitPriceToCheckAgainst ?? {
    fact: CATALOGUE_FACT,
    path: `$[${quoted(productId)}].unitPrice`,
  };
  return {
    all: [hasProduct, eitherMatch(`$.transaction.lineItems[?(@.productId == ${quoted(productId)})].unitPrice`, price)],
  };
}

function eitherMatch(path: string, value: unknown): RuleConditions {
  return {
    any: [
      { fact: REQUEST_FACT, path, operator: 'contains', value },
      { fact: REQUEST_FACT, path, operator: 'equal', value },
    ],
  };
}

/** A string literal for a JSONPath bracket or filter. */
function quoted(text: string): string {
  return `'${text.replace(/[\\']/g, (character) => `\\${character}`)}'`;
}
