import { describe, expect, it } from 'vitest';
import { jsonPathProblem, selectJsonPath } from '../../shared/platform/json-path/json-path.js';

const request = {
  transaction: {
    total: 12.5,
    lineItems: [
      { productId: 'P-1', description: 'Oat milk', unitPrice: 2.5, quantity: 1 },
      { productId: 'P-2', description: "Baker's loaf", unitPrice: 4, quantity: 2 },
      { productId: 'P-1', description: 'Oat milk', unitPrice: 3, quantity: 3, metadata: { promo: true } },
    ],
  },
};

// docs/receipts.md#rule-definitions: a path may select `lineItems[*].productId`, "or
// filtering line items by productId and selecting `unitPrice`".
describe('line-item filters', () => {
  it.each([
    ["$.transaction.lineItems[?(@.productId == 'P-1')].unitPrice", [2.5, 3]],
    ['$.transaction.lineItems[?(@.productId == "P-2")].quantity', [2]],
    ["$.transaction.lineItems[?(@.productId === 'P-1' && @.quantity >= 2)].unitPrice", [3]],
    [
      "$.transaction.lineItems[?(@.productId == 'P-2' || (@.unitPrice < 3 && @.quantity == 1))].productId",
      ['P-1', 'P-2'],
    ],
    ["$.transaction.lineItems[?(@.productId != 'P-1')].productId", ['P-2']],
    ["$.transaction.lineItems[?(@.description == 'Baker\\'s loaf')].productId", ['P-2']],
    ["$.transaction.lineItems[?(@['metadata']['promo'] == true)].unitPrice", [3]],
    ['$.transaction.lineItems[?(@.metadata)].unitPrice', [3]],
    // No coercion: the string "4" is not the number 4, and strings never compare with numbers.
    ["$.transaction.lineItems[?(@.unitPrice == '4')].productId", []],
    ["$.transaction.lineItems[?(@.unitPrice > '3')].productId", []],
  ])('%s selects %j', (path, expected) => {
    expect(jsonPathProblem(path)).toBeUndefined();
    expect(selectJsonPath(path, request)).toEqual(expected);
  });
});

// docs/dependencies.md: jsonpath-plus's script evaluators have carried remote-code-execution bugs: never evaluate scripts.
describe('anything but a comparison is refused, and selects nothing when met at run time', () => {
  it.each<string>([
    "$.transaction.lineItems[?(@.constructor.constructor('return process')().exit(1))]",
    "$.transaction.lineItems[?(@.productId.startsWith('P'))]",
    '$.transaction.lineItems[?(@.unitPrice * 2 > 5)]',
    '$.transaction.lineItems[?(@root.transaction.total > 1)]',
    '$.transaction.lineItems[?(@parent.length > 1)]',
    '$.transaction.lineItems[?(@.unitPrice = 3)]',
    '$.transaction.lineItems[?(process)]',
    '$.transaction.lineItems[(@.length-1)]',
    // jsonpath-plus would rewrite the @ inside the string: the filter could never match it.
    "$.transaction.lineItems[?(@.description == 'x@.y')]",
  ])('%s', (path) => refused(path));

  it('a filter nested 20,000 deep is refused with a message of its own, never a crash', () => {
    refused(`$.transaction.lineItems[?(${'('.repeat(20_000)}@.quantity${')'.repeat(20_000)})]`);
  });

  function refused(path: string) {
    expect(jsonPathProblem(path)).toMatch(/not a comparison|scripts are not evaluated/);
    expect(jsonPathProblem(path)!.length).toBeLessThan(500);
    expect(selectJsonPath(path, request)).toEqual([]);
  }

  it('a field of the prototype is no field: @.constructor is undefined', () => {
    expect(selectJsonPath('$.transaction.lineItems[?(@.constructor)]', request)).toEqual([]);
  });
});
