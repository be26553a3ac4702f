import { Engine, type TopLevelCondition } from 'json-rules-engine';
import { basketConditions } from '../../shared/rules/basket-rule.js';
import type { ExecutableRule } from '../../shared/rules/rule-definition.js';
import { CompiledRules } from '../../shared/rules/rule-engine.js';
import { venueMatchesOperator } from '../../shared/rules/venue-matches.js';
import { median } from './stats.js';

export interface RulesFigures {
  servicePerSecond: number;
  directPerSecond: number;
}

const PRODUCTS = Array.from({ length: 20 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

/** A 20-line receipt, as `$.transaction` carries it. */
function receipt(): Record<string, unknown> {
  return {
    total: 96.4,
    subtotal: 88,
    merchantName: 'Corner Shop',
    formatSlug: 'corner-shop-till',
    serviceDate: '2026-11-20',
    locationIdentifier: 'STORE-12',
    submitter: { authIdentifier: 'shopper' },
    lineItems: PRODUCTS.map((productId, i) => ({
      description: `Item ${i}`,
      identifier: `SKU-${i}`,
      productId,
      quantity: 1 + (i % 3),
      unitPrice: 1 + i * 0.5,
      totalPrice: (1 + (i % 3)) * (1 + i * 0.5),
    })),
  };
}

const request = (path: string, operator: string, value: unknown) => ({ fact: 'request', path, operator, value });

/** 15 rules over four priorities: ten CUSTOM (totals, merchant, line-item filters, a venue, chained keys) and five BASKET. */
function ruleSet(): ExecutableRule[] {
  const custom = (
    name: string,
    priority: number,
    conditions: object,
    success: [string, unknown][],
  ): ExecutableRule => ({
    id: name,
    name,
    type: 'CUSTOM',
    priority,
    conditions: conditions as Record<string, unknown>,
    resultParams: { success: success.map(([key, value]) => ({ key, value })), failure: [] },
  });
  const itemPrice = (index: number) => `$.transaction.lineItems[?(@.productId == '${PRODUCTS[index]}')].unitPrice`;
  const rules: ExecutableRule[] = [
    custom('BIG_BASKET', 30, { all: [request('$.transaction.total', 'greaterThan', 50)] }, [['segment', 'big']]),
    custom(
      'KNOWN_MERCHANT',
      30,
      {
        any: [
          request('$.transaction.merchantName', 'equal', 'Corner Shop'),
          request('$.transaction.merchantName', 'equal', 'Big Market'),
        ],
      },
      [['merchant', 'known']],
    ),
    custom('AT_STORE', 30, { all: [request('$.transaction', 'venueMatches', 'venue-1')] }, [['store', true]]),
    custom('MANY_LINES', 20, { all: [request('$.transaction.lineItems[*].productId', 'contains', PRODUCTS[3])] }, [
      ['lines', 'many'],
    ]),
    custom('BIG_SEGMENT_BONUS', 20, { all: [{ fact: 'segment', operator: 'equal', value: 'big' }] }, [['bonus', 50]]),
    custom('PROMO_PRICE', 20, { any: [request(itemPrice(4), 'contains', 3), request(itemPrice(4), 'equal', 3)] }, [
      ['promo', true],
    ]),
    custom(
      'PREMIUM_ITEM',
      10,
      { any: [request(itemPrice(19), 'greaterThan', 9), request(itemPrice(18), 'greaterThan', 9)] },
      [['premium', true]],
    ),
    custom(
      'QUANTITY_DEAL',
      10,
      { all: [request(`$.transaction.lineItems[?(@.quantity >= 3)].productId`, 'contains', PRODUCTS[2])] },
      [['deal', true]],
    ),
    custom(
      'SUBTOTAL_CHECK',
      10,
      {
        all: [
          request('$.transaction.subtotal', 'lessThanInclusive', 100),
          request('$.transaction.serviceDate', 'equal', '2026-11-20'),
        ],
      },
      [['subtotalOk', true]],
    ),
    custom(
      'KNOWN_AND_BIG',
      1,
      {
        all: [
          { fact: 'merchant', operator: 'equal', value: 'known' },
          { fact: 'segment', operator: 'equal', value: 'big' },
        ],
      },
      [['verdict', 'AUTHORIZE']],
    ),
  ];
  for (let i = 0; i < 5; i++) {
    rules.push({
      id: `basket-${i}`,
      name: `BASKET_${i}`,
      type: 'BASKET',
      priority: 5,
      conditions: basketConditions({
        productId: PRODUCTS[i * 3]!,
        isUnitPriceCheckNeeded: i % 2 === 0,
        overridingUnitPriceToCheckAgainst: 1 + i * 1.5,
      }),
      resultParams: { success: [{ key: `basket${i}`, value: true }], failure: [] },
    });
  }
  return rules;
}

/** The rate of `run` over `seconds`, after a warm-up. */
async function rate(run: () => Promise<unknown>, seconds: number): Promise<number> {
  for (let i = 0; i < 200; i++) await run();
  let count = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    await run();
    count++;
  }
  return count / ((performance.now() - started) / 1000);
}

/**
 * Rule-set evaluations per second (issue 5): the service's run (CompiledRules: an engine per
 * priority lent to one run at a time, the safe JSONPath resolver with its filter grammar, chaining,
 * the result) against
 * json-rules-engine run directly on the same conditions: one engine built once and reused, with
 * its own defaults, its path resolver included. Alternated round by round on one core.
 */
export async function benchmarkRules(rounds: number, seconds: number): Promise<RulesFigures> {
  const rules = ruleSet();
  const transaction = receipt();
  const operators = [
    venueMatchesOperator(new Map([['venue-1', { identifiers: ['STORE-12'], position: null, radiusMeters: 100 }]])),
  ];
  const catalogue = Object.fromEntries(PRODUCTS.map((id, i) => [id, { unitPrice: 1 + i * 0.5 }]));
  // As TransactionRuleEngine runs a cached set: compiled once, engines lent run by run.
  const compiled = new CompiledRules(rules, operators);
  const service = () => compiled.run(transaction, { catalogue });

  const direct = new Engine([], { allowUndefinedFacts: true });
  direct.addOperator(operators[0]!.name, operators[0]!.evaluate);
  // Priorities must be positive for json-rules-engine; the order is the same.
  for (const rule of rules)
    direct.addRule({
      name: rule.name,
      priority: rule.priority,
      conditions: rule.conditions as unknown as TopLevelCondition,
      event: { type: rule.name },
    });
  const directRun = () => direct.run({ request: { transaction }, catalogue });

  const sanity = await service();
  if (sanity.rules.length !== rules.length)
    throw new Error(`the service ran ${sanity.rules.length} of ${rules.length} rules`);
  const figures = { service: [] as number[], direct: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    figures.direct.push(await rate(directRun, seconds));
    figures.service.push(await rate(service, seconds));
  }
  return { servicePerSecond: median(figures.service), directPerSecond: median(figures.direct) };
}
