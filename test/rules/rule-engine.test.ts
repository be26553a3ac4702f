import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../shared/platform/errors/app-errors.js';
import { basketConditions } from '../../shared/rules/basket-rule.js';
import { checkRuleDefinition, type ProductLookup } from '../../shared/rules/check-rule-definition.js';
import type { ExecutableRule, RuleDefinition } from '../../shared/rules/rule-definition.js';
import { CompiledRules, runRules } from '../../shared/rules/rule-engine.js';
import { CRAFTED_NUMBER } from '../support/payload-traps.js';

const transaction = {
  total: 11.5,
  merchantName: 'Corner Shop',
  lineItems: [
    { productId: 'oat-milk', description: 'Oat milk', unitPrice: 2.5, quantity: 1 },
    { productId: 'loaf', description: 'Loaf', unitPrice: 4, quantity: 1 },
    { productId: 'oat-milk', description: 'Oat milk', unitPrice: 5, quantity: 2 },
  ],
};

let nextId = 0;
function rule(
  name: string,
  priority: number,
  conditions: Record<string, unknown>,
  success: [string, unknown][] = [],
  failure: [string, unknown][] = [],
): ExecutableRule {
  const pairs = (list: [string, unknown][]) => list.map(([key, value]) => ({ key, value }));
  return {
    id: `rule-${nextId++}`,
    name,
    type: 'CUSTOM',
    priority,
    conditions,
    resultParams: { success: pairs(success), failure: pairs(failure) },
  };
}
const totalOver = (amount: number) => ({
  all: [{ fact: 'request', path: '$.transaction.total', operator: 'greaterThan', value: amount }],
});
const always = { all: [{ fact: 'request', path: '$.transaction.total', operator: 'greaterThanInclusive', value: 0 }] };

describe('running a rule set (docs/receipts.md#running-a-rule-set)', () => {
  // Issue 31: a number sent as {"toString":"x","valueOf":1} threw in the engine's numeric comparisons.
  it('reads a transaction value that is not plain data as no number: its comparison fails, and the run goes on', async () => {
    const run = await runRules([rule('big', 1, totalOver(10), [['big', true]], [['big', false]])], {
      ...transaction,
      total: CRAFTED_NUMBER,
    });
    expect(run.result).toEqual({ big: false });
  });

  it('"Higher priority runs first"; "a later key does not overwrite an earlier one"; failure parameters count too', async () => {
    const run = await runRules(
      [
        rule('low', 1, always, [
          ['tier', 'low'],
          ['low', true],
        ]),
        rule(
          'high',
          10,
          totalOver(100),
          [['tier', 'big']],
          [
            ['tier', 'small'],
            ['checked', 1],
          ],
        ),
      ],
      transaction,
    );
    expect(run).toEqual({
      result: { tier: 'small', checked: 1, low: true },
      rules: [
        { id: expect.any(String), name: 'high', priority: 10, outcome: 'failure' },
        { id: expect.any(String), name: 'low', priority: 1, outcome: 'success' },
      ],
      stopped: false,
    });
  });

  it('"stopRuleEngine … first appends that rule\'s other result parameters … then stops, without running rules of lower priority. Other rules of the same priority may still run."', async () => {
    const run = await runRules(
      [
        rule('stopper', 5, always, [
          ['stopRuleEngine', true],
          ['verdict', 'REJECT'],
          ['reason', 'SUSPICIOUS'],
        ]),
        rule('sibling', 5, always, [['sibling', 'ran']]),
        rule('after', 1, always, [['after', 'ran']]),
      ],
      transaction,
    );
    // docs/receipts.md#running-a-rule-set: "stopRuleEngine is control, not copied into result; rules that did not run are absent from rules".
    expect(run.result).toEqual({ verdict: 'REJECT', reason: 'SUSPICIOUS', sibling: 'ran' });
    expect(run.rules.map((outcome) => outcome.name)).toEqual(['stopper', 'sibling']);
    expect(run.stopped).toBe(true);
  });

  it('stopRuleEngine false, or on the outcome that did not happen, stops nothing', async () => {
    const run = await runRules(
      [
        rule('maybe', 5, always, [['stopRuleEngine', false]], [['stopRuleEngine', true]]),
        rule('after', 1, always, [['after', 'ran']]),
      ],
      transaction,
    );
    expect(run).toMatchObject({ result: { after: 'ran' }, stopped: false });
  });

  it('"Chaining: a key set in the result parameters of a higher-priority rule can be used inside the ruleProperties.conditions of a later rule"', async () => {
    const usesSegment = { all: [{ fact: 'segment', operator: 'equal', value: 'gold' }] };
    const run = await runRules(
      [
        rule('classify', 10, always, [['segment', 'gold']]),
        rule('reward', 1, usesSegment, [['bonus', 50]], [['bonus', 0]]),
      ],
      transaction,
    );
    expect(run.result).toEqual({ segment: 'gold', bonus: 50 });
  });

  it('"Rules with equal priority run in parallel": they see the facts of higher priorities only, never each other\'s', async () => {
    const usesSegment = { all: [{ fact: 'segment', operator: 'equal', value: 'gold' }] };
    const run = await runRules(
      [
        rule('classify', 3, always, [['segment', 'gold']]),
        rule('peer', 3, usesSegment, [['peerSaw', true]], [['peerSaw', false]]),
      ],
      transaction,
    );
    expect(run.result).toEqual({ segment: 'gold', peerSaw: false });
  });

  it('"A line-item filter matches when any one filtered line item matches", with contains and equal in an any group', async () => {
    const price = (value: number) => ({
      any: [
        {
          fact: 'request',
          path: "$.transaction.lineItems[?(@.productId == 'oat-milk')].unitPrice",
          operator: 'contains',
          value,
        },
        {
          fact: 'request',
          path: "$.transaction.lineItems[?(@.productId == 'oat-milk')].unitPrice",
          operator: 'equal',
          value,
        },
        {
          fact: 'request',
          path: "$.transaction.lineItems[?(@.productId == 'loaf')].unitPrice",
          operator: 'equal',
          value,
        },
      ],
    });
    const run = await runRules(
      [
        rule('oat 5', 1, price(5), [['oat5', true]], [['oat5', false]]),
        rule('loaf 4', 1, price(4), [['loaf4', true]], [['loaf4', false]]),
        rule('none 9', 1, price(9), [['none9', true]], [['none9', false]]),
      ],
      transaction,
    );
    expect(run.result).toEqual({ oat5: true, loaf4: true, none9: false });
  });

  it('runs of one compiled set at the same time never stop or see each other (each borrows its own engines)', async () => {
    const compiled = new CompiledRules([
      rule(
        'stop big',
        5,
        totalOver(100),
        [
          ['stopRuleEngine', true],
          ['size', 'big'],
        ],
        [['size', 'small']],
      ),
      rule('after', 1, totalOver(0), [['after', 'ran']]),
    ]);
    // Rounds after the first reuse the engines the earlier ones returned.
    for (let round = 0; round < 3; round++) {
      const runs = await Promise.all(
        Array.from({ length: 20 }, (_, n) => compiled.run({ ...transaction, total: n % 2 ? 500 : 5 })),
      );
      runs.forEach((run, n) => {
        expect(run).toEqual(
          n % 2
            ? { result: { size: 'big' }, rules: [expect.objectContaining({ name: 'stop big' })], stopped: true }
            : { result: { size: 'small', after: 'ran' }, rules: expect.any(Array), stopped: false },
        );
      });
    }
  });

  it('a set with no rules answers an empty result', async () => {
    expect(await runRules([], transaction)).toEqual({ result: {}, rules: [], stopped: false });
  });
});

// docs/receipts.md#basket-rules: "BASKET rules compile to conditions over lineItems[*].productId (and the unit price,
// from overridingUnitPriceToCheckAgainst or the product's catalogue price)".
describe('BASKET rules', () => {
  const basket = (configuration: Parameters<typeof basketConditions>[0]) => ({
    ...rule('basket', 1, {}, [['qualifies', true]], [['qualifies', false]]),
    type: 'BASKET' as const,
    conditions: basketConditions(configuration),
  });
  const qualifies = async (
    configuration: Parameters<typeof basketConditions>[0],
    catalogue: Record<string, unknown> = {},
  ) => (await runRules([basket(configuration)], transaction, { catalogue })).result.qualifies;

  it('match when the product is in the basket', async () => {
    expect(await qualifies({ productId: 'loaf', isUnitPriceCheckNeeded: false })).toBe(true);
    expect(await qualifies({ productId: 'oat-milk', isUnitPriceCheckNeeded: false })).toBe(true);
    expect(await qualifies({ productId: 'butter', isUnitPriceCheckNeeded: false })).toBe(false);
  });

  it("check the unit price of any one of the product's items against the overriding price", async () => {
    expect(
      await qualifies({ productId: 'oat-milk', isUnitPriceCheckNeeded: true, overridingUnitPriceToCheckAgainst: 5 }),
    ).toBe(true);
    expect(
      await qualifies({ productId: 'loaf', isUnitPriceCheckNeeded: true, overridingUnitPriceToCheckAgainst: 4 }),
    ).toBe(true);
    expect(
      await qualifies({ productId: 'oat-milk', isUnitPriceCheckNeeded: true, overridingUnitPriceToCheckAgainst: 3 }),
    ).toBe(false);
  });

  it('else against the catalogue price at the time of the run', async () => {
    const configuration = { productId: 'loaf', isUnitPriceCheckNeeded: true };
    expect(await qualifies(configuration, { loaf: { unitPrice: 4 } })).toBe(true);
    expect(await qualifies(configuration, { loaf: { unitPrice: 3.8 } })).toBe(false);
    expect(await qualifies(configuration, {})).toBe(false);
  });

  it('quote product ids that would otherwise break out of the path', async () => {
    const odd = "it's\\odd";
    const run = await runRules(
      [{ ...basket({ productId: odd, isUnitPriceCheckNeeded: true, overridingUnitPriceToCheckAgainst: 1 }) }],
      { lineItems: [{ productId: odd, unitPrice: 1 }] },
    );
    expect(run.result.qualifies).toBe(true);
  });
});

// What a rule definition must hold, and the 400 when it does not (docs/receipts.md#rule-definitions).
describe('checking a rule definition', () => {
  const products: ProductLookup = async (id) =>
    (
      ({ loaf: { id: 'product-loaf', unitPrice: 4 }, bag: { id: 'product-bag', unitPrice: null } }) as Record<
        string,
        { id: string; unitPrice: number | null }
      >
    )[id];
  const custom: RuleDefinition = {
    type: 'CUSTOM',
    name: 'BIG_BASKET',
    priority: 5,
    ruleProperties: { conditions: totalOver(50), event: { type: 'BIG_BASKET' }, priority: 5 },
    resultParams: { success: [{ key: 'verdict', value: 'AUTHORIZE' }], failure: [] },
  };
  const check = (definition: RuleDefinition) => checkRuleDefinition(definition, 'ruleDefinitions[0]', products, []);

  it("accepts a CUSTOM rule as written and generates a BASKET rule's properties", async () => {
    expect(await check(custom)).toEqual({ ruleProperties: custom.ruleProperties });
    const generated = await check({
      type: 'BASKET',
      name: 'Loaf',
      priority: 2,
      configuration: { productId: 'loaf', isUnitPriceCheckNeeded: true },
      resultParams: { success: [], failure: [] },
    });
    expect(generated.warnings).toBeUndefined();
    expect(generated.ruleProperties).toMatchObject({
      event: { type: 'Loaf' },
      priority: 2,
      conditions: { all: expect.any(Array) },
    });
    // The conditions name the product the identifier resolved to, as line items carry it.
    expect(JSON.stringify(generated.ruleProperties.conditions)).toContain('product-loaf');
  });

  // Issue 22: "an identifier no product has is kept as an opaque id matched against line items' productId, with a
  // warning in the response, instead of the 400 a spec-following client gets today."
  it('keeps a BASKET productId no product has as an opaque id, with a warning', async () => {
    const kept = await check({
      type: 'BASKET',
      name: 'Caviar',
      priority: 1,
      configuration: { productId: 'caviar', isUnitPriceCheckNeeded: false },
      resultParams: { success: [], failure: [] },
    });
    expect(kept.warnings).toEqual([expect.stringMatching(/productId "caviar" is no product's id or identifier/)]);
    expect(JSON.stringify(kept.ruleProperties.conditions)).toContain('caviar');
  });

  it.each([
    [
      '"priority … must equal ruleProperties.priority"',
      { ...custom, priority: 4 },
      /ruleDefinitions\[0\] \("BIG_BASKET"\): priority 4 differs from ruleProperties.priority 5/,
    ],
    [
      '"name … for CUSTOM must equal ruleProperties.event.type"',
      { ...custom, name: 'OTHER' },
      /name "OTHER" differs from ruleProperties.event.type "BIG_BASKET"/,
    ],
    [
      'a CUSTOM rule without ruleProperties',
      { ...custom, ruleProperties: undefined },
      /a CUSTOM rule needs ruleProperties/,
    ],
    [
      'an unknown operator',
      {
        ...custom,
        ruleProperties: {
          ...custom.ruleProperties!,
          conditions: { all: [{ fact: 'request', path: '$.transaction.total', operator: 'isHuge', value: 1 }] },
        },
      },
      /cannot be evaluated: Unknown operator/,
    ],
    [
      'a script in a path',
      {
        ...custom,
        ruleProperties: {
          ...custom.ruleProperties!,
          conditions: {
            all: [
              {
                fact: 'request',
                path: "$.transaction.lineItems[?(@.constructor.constructor('return process')())]",
                operator: 'equal',
                value: 1,
              },
            ],
          },
        },
      },
      /ruleProperties.conditions: .*not a comparison/,
    ],
    [
      'conditions outside the language',
      { ...custom, ruleProperties: { ...custom.ruleProperties!, conditions: { whenever: true } } },
      /not json-rules-engine conditions/,
    ],
    [
      'a verdict outside the enumeration',
      { ...custom, resultParams: { success: [{ key: 'verdict', value: 'MAYBE' }], failure: [] } },
      /resultParams.success\[0\]: verdict takes one of ABSTAIN, REJECT, AUTHORIZE/,
    ],
    [
      'a result key that is a fact the engine provides',
      { ...custom, resultParams: { success: [], failure: [{ key: 'request', value: 1 }] } },
      /resultParams.failure\[0\].key "request"/,
    ],
    [
      'a BASKET rule without configuration',
      { ...custom, type: 'BASKET', ruleProperties: undefined },
      /a BASKET rule needs configuration/,
    ],
    [
      'a BASKET price check against the catalogue for no product',
      {
        ...custom,
        type: 'BASKET',
        ruleProperties: undefined,
        configuration: { productId: 'caviar', isUnitPriceCheckNeeded: true },
      },
      /"caviar" is no product's id or identifier, so give configuration.overridingUnitPriceToCheckAgainst/,
    ],
    [
      'a BASKET price check with no price to check',
      {
        ...custom,
        type: 'BASKET',
        ruleProperties: undefined,
        configuration: { productId: 'bag', isUnitPriceCheckNeeded: true },
      },
      /has no unitPrice/,
    ],
  ] as [string, RuleDefinition, RegExp][])(
    'refuses %s with BadRequestError naming the rule and fields',
    async (_case, definition, message) => {
      const refusal = check(definition);
      await expect(refusal).rejects.toThrow(BadRequestError);
      await expect(refusal).rejects.toThrow(message);
    },
  );
});
